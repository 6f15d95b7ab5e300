extension MockFaults {
    private enum CodingKeys: String, CodingKey {
        case goAwayAfterStreams, goAwayReason, resetEvery, refuseEvery, stallEvery, closeAfterStreams, latency
        case errorRate, errorStatus, retryAfterSeconds, forcedReason, forcedReasonCount, slowReadMilliseconds
    }

    /// Every key is optional: `{"errorRate":0.02}` is a complete fault set (synthesized decoding would
    /// demand every key, defaults or not).
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        goAwayAfterStreams = try container.decodeIfPresent(Int.self, forKey: .goAwayAfterStreams)
        goAwayReason = try container.decodeIfPresent(String.self, forKey: .goAwayReason) ?? goAwayReason
        resetEvery = try container.decodeIfPresent(Int.self, forKey: .resetEvery)
        refuseEvery = try container.decodeIfPresent(Int.self, forKey: .refuseEvery)
        stallEvery = try container.decodeIfPresent(Int.self, forKey: .stallEvery)
        closeAfterStreams = try container.decodeIfPresent(Int.self, forKey: .closeAfterStreams)
        latency = try container.decodeIfPresent(Latency.self, forKey: .latency) ?? latency
        errorRate = try container.decodeIfPresent(Double.self, forKey: .errorRate) ?? errorRate
        errorStatus = try container.decodeIfPresent(Int.self, forKey: .errorStatus) ?? errorStatus
        retryAfterSeconds = try container.decodeIfPresent(Int.self, forKey: .retryAfterSeconds)
        forcedReason = try container.decodeIfPresent(String.self, forKey: .forcedReason)
        forcedReasonCount = try container.decodeIfPresent(Int.self, forKey: .forcedReasonCount) ?? forcedReasonCount
        slowReadMilliseconds = try container.decodeIfPresent(Int.self, forKey: .slowReadMilliseconds)
    }
}
