/// Which devices exist, as the mock answers for them. Lookup is by lowercase hex token.
///
/// The default registry is open: every well-formed token is an active device, so benchmarks can push to
/// random tokens. Two prefixes give end-to-end tests a mix of outcomes without keeping a device list: tokens
/// starting with `unregisteredPrefix` answer 410 `Unregistered`, tokens starting with `unknownPrefix` answer
/// 400 `BadDeviceToken`. Explicitly listed tokens win over both prefixes.
public struct DeviceRegistry: Sendable {
    /// What APNs would say about one device token.
    public enum Status: Equatable, Sendable {
        /// The device exists: the push is accepted.
        case active
        /// The app was removed; 410 `Unregistered` with this epoch-milliseconds timestamp.
        case unregistered(sinceMilliseconds: Int64)
        /// APNs never issued this token (or issued it in the other environment): 400 `BadDeviceToken`.
        case unknown
    }

    /// The timestamp reported for tokens that are unregistered by prefix: fixed, so tests can assert it.
    public static let prefixUnregisteredMilliseconds: Int64 = 1_700_000_000_000

    /// Whether a token that is neither listed nor matched by a prefix is an active device.
    public var acceptsUnknownDevices: Bool
    /// Tokens that are active whatever the prefixes and `acceptsUnknownDevices` say.
    public private(set) var devices: Set<String>
    /// Tokens that answer `Unregistered`, with the time (epoch milliseconds) the app went away.
    public private(set) var unregistered: [String: Int64]
    /// Tokens beginning with this answer `Unregistered`; `nil` turns the rule off.
    public let unregisteredPrefix: String?
    /// Tokens beginning with this answer `BadDeviceToken`; `nil` turns the rule off.
    public let unknownPrefix: String?

    /// - Parameter acceptsUnknownDevices: `true` makes every well-formed token an active device unless it is
    ///   listed otherwise or matches a prefix.
    public init(
        acceptsUnknownDevices: Bool = true,
        devices: Set<String> = [],
        unregistered: [String: Int64] = [:],
        unregisteredPrefix: String? = "dead",
        unknownPrefix: String? = "bad0"
    ) {
        self.acceptsUnknownDevices = acceptsUnknownDevices
        self.devices = Set(devices.map { $0.lowercased() })
        self.unregistered = Dictionary(unregistered.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.unregisteredPrefix = unregisteredPrefix?.lowercased()
        self.unknownPrefix = unknownPrefix?.lowercased()
    }

    /// The status of `hexToken` (either case). A token listed both as a device and as unregistered is
    /// unregistered: marking a death is the more deliberate statement.
    public func status(of hexToken: String) -> Status {
        let token = Self.lowercase(hexToken)
        if let since = unregistered[token] { return .unregistered(sinceMilliseconds: since) }
        if devices.contains(token) { return .active }
        if let prefix = unregisteredPrefix, token.hasPrefix(prefix) {
            return .unregistered(sinceMilliseconds: Self.prefixUnregisteredMilliseconds)
        }
        if let prefix = unknownPrefix, token.hasPrefix(prefix) { return .unknown }
        return acceptsUnknownDevices ? .active : .unknown
    }

    /// Makes `hexToken` an active device, undoing an earlier ``unregister(_:sinceMilliseconds:)``.
    public mutating func register(_ hexToken: String) {
        let token = Self.lowercase(hexToken)
        unregistered[token] = nil
        devices.insert(token)
    }

    /// Makes `hexToken` answer `Unregistered` with `sinceMilliseconds`.
    public mutating func unregister(_ hexToken: String, sinceMilliseconds: Int64) {
        let token = Self.lowercase(hexToken)
        devices.remove(token)
        unregistered[token] = sinceMilliseconds
    }

    /// Tokens reach the registry already lowercased by `DeviceToken`; only pay for `lowercased()` when needed.
    private static func lowercase(_ token: String) -> String {
        token.utf8.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } ? token.lowercased() : token
    }
}
