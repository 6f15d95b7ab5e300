/// How many streams a connection may use now.
///
/// APNs allows one stream on a token connection until a request with a valid token succeeds, then its
/// advertised SETTINGS_MAX_CONCURRENT_STREAMS, which it may lower again at any time.
struct StreamLimit: Hashable, Sendable {
    let usesTokens: Bool
    /// The local cap, below the server's limit.
    let cap: Int?
    private(set) var serverLimit: Int
    private(set) var hasAcceptedPush = false

    init(usesTokens: Bool, cap: Int?, serverLimit: Int = 1) {
        self.usesTokens = usesTokens
        self.cap = cap
        self.serverLimit = serverLimit
    }

    /// Streams the pool may hand out on this connection.
    var effective: Int {
        if usesTokens && !hasAcceptedPush { return min(1, serverLimit) }
        return min(serverLimit, cap ?? Int.max)
    }

    /// Records the server's SETTINGS value; returns whether the effective limit changed.
    mutating func serverAdvertised(_ limit: UInt32) -> Bool {
        let before = effective
        serverLimit = Int(min(limit, UInt32(Int32.max)))
        return effective != before
    }

    /// Records an accepted push; returns whether the effective limit changed.
    mutating func pushAccepted() -> Bool {
        guard !hasAcceptedPush else { return false }
        let before = effective
        hasAcceptedPush = true
        return effective != before
    }
}
