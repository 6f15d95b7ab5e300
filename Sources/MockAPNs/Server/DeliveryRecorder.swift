import Synchronization

/// What the mock accepted and refused: the ground truth for exactly-once checks in tests and benchmarks.
public final class DeliveryRecorder: Sendable {
    /// A copy of every count at one moment.
    public struct Snapshot: Codable, Hashable, Sendable {
        public var requests = 0
        public var accepted = 0
        /// Accepted requests per `apns-id` (the mock's generated id when the request had none).
        public var acceptedByAPNsID: [String: Int] = [:]
        /// Accepted requests per device token.
        public var acceptedByDevice: [String: Int] = [:]
        public var rejectedByReason: [String: Int] = [:]
        public var connectionsOpened = 0
        public var goAwaysSent = 0
        public var streamsReset = 0
        public var streamsRefused = 0
        public var streamsStalled = 0
        public var connectionsClosedAbruptly = 0
        public var injectedErrors = 0

        /// apns-ids accepted more than once: duplicates a client caused.
        public var duplicateAPNsIDs: [String: Int] { acceptedByAPNsID.filter { $0.value > 1 } }
    }

    private let counts = Mutex(Snapshot())

    public init() {}

    public var snapshot: Snapshot { counts.withLock { $0 } }

    public func reset() { counts.withLock { $0 = Snapshot() } }

    func update(_ body: (inout Snapshot) -> Void) {
        counts.withLock { body(&$0) }
    }

    func recordAccepted(apnsID: String, device: String) {
        counts.withLock { counts in
            counts.accepted += 1
            counts.acceptedByAPNsID[apnsID, default: 0] += 1
            counts.acceptedByDevice[device, default: 0] += 1
        }
    }
}
