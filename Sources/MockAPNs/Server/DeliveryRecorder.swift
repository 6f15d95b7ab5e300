import NIOConcurrencyHelpers

/// What the mock accepted and refused: the ground truth for exactly-once checks in tests and benchmarks.
public final class DeliveryRecorder: Sendable {
    /// A copy of every count at one moment.
    public struct Snapshot: Codable, Hashable, Sendable {
        public var requests = 0
        public var accepted = 0
        /// Accepted requests per `apns-id` (the mock's generated id when the request had none).
        public var acceptedByAPNsID: [String: Int] = [:]
        public var rejectedByReason: [String: Int] = [:]
        public var connectionsOpened = 0
        public var goAwaysSent = 0
        public var streamsReset = 0
        public var streamsRefused = 0
        public var streamsStalled = 0
        public var connectionsClosedAbruptly = 0
        public var injectedErrors = 0
        /// Requests with a header field HTTP/2 forbids; each ended its connection (GOAWAY PROTOCOL_ERROR).
        public var malformedRequests = 0
        /// Broadcast-channel requests answered (management and broadcasts, accepted or not).
        public var channelRequests = 0

        /// apns-ids accepted more than once: duplicates a client caused.
        public var duplicateAPNsIDs: [String: Int] { acceptedByAPNsID.filter { $0.value > 1 } }
    }

    private struct State {
        /// Every count but the per-id one, which is kept apart in a cheaper form.
        var counts = Snapshot()
        /// Accepted ids in ``idTables`` tables by their hash. A table grown past its capacity rehashes
        /// every id it holds, under the lock every connection's answers take: one table stalled all of
        /// them for 30-50 ms in the middle of a benchmark's drain (at about 100,000 and 200,000 ids).
        /// Timed alone, 300,000 inserts: the slowest took 34-42 ms in one table, 0.3-0.45 ms in 64.
        /// (One table sized for a million ids up front also ended the stalls, but the fault suite's
        /// `broker-restart` then published 223-1,000 duplicate results in 3 of 3 runs, against 0 in 3
        /// with these tables and 0 in 2 with the old one; why is not known.)
        var acceptedByID = [[RecordedID: Int]](repeating: [:], count: DeliveryRecorder.idTables)
    }

    private let state = NIOLockedValueBox(State())
    /// How many tables hold the accepted ids (a power of two: a table is picked by the hash's low bits).
    static let idTables = 64

    public init() {}

    public var snapshot: Snapshot {
        state.withLockedValue { state in
            var snapshot = state.counts
            snapshot.acceptedByAPNsID = Dictionary(uniqueKeysWithValues: state.acceptedByID.joined().map { ($0.key.description, $0.value) })
            return snapshot
        }
    }

    public func reset() { state.withLockedValue { $0 = State() } }

    func update(_ body: (inout Snapshot) -> Void) {
        state.withLockedValue { body(&$0.counts) }
    }

    func recordAccepted(apnsID: String) {
        // Parsed outside the lock: the connections' event loops share this recorder.
        let id = RecordedID(apnsID)
        let table = id.hashValue & (Self.idTables - 1)
        state.withLockedValue { state in
            state.counts.accepted += 1
            state.acceptedByID[table][id, default: 0] += 1
        }
    }
}

/// An `apns-id` as the recorder keeps it: a UUID as two integers, since every accepted push of a
/// benchmark run is recorded and hashing, comparing and storing 36-character strings cost the mock a
/// tenth of its CPU. Anything that is not a UUID stays a string.
enum RecordedID: Hashable, CustomStringConvertible {
    case uuid(high: UInt64, low: UInt64)
    case other(String)

    init(_ text: String) {
        var text = text
        self = text.withUTF8(Self.uuid) ?? .other(text)
    }

    /// The 32 hex digits of an 8-4-4-4-12 UUID (either case), or nil.
    private static func uuid(_ bytes: UnsafeBufferPointer<UInt8>) -> RecordedID? {
        guard bytes.count == 36 else { return nil }
        var halves: (UInt64, UInt64) = (0, 0)
        var digits = 0
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = byte.hexDigitValue.map(UInt64.init) else { return nil }
            if digits < 16 { halves.0 = halves.0 << 4 | nibble } else { halves.1 = halves.1 << 4 | nibble }
            digits += 1
        }
        return .uuid(high: halves.0, low: halves.1)
    }

    /// The canonical lowercase form (what APNs echoes for a valid id).
    var description: String {
        switch self {
        case .other(let text):
            return text
        case .uuid(let high, let low):
            let hex = Self.hex(high) + Self.hex(low)
            let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
            return parts.joined(separator: "-")
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
