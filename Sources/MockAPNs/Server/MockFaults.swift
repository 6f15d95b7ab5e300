import Foundation

/// Faults the mock injects, set at start or changed while it runs (``MockAPNsServer/setFaults(_:)``, or
/// `POST /_mock/faults` with this as JSON). Counts are per connection unless stated otherwise.
public struct MockFaults: Codable, Hashable, Sendable {
    /// Send GOAWAY after this many requests on a connection: those up to it are answered, later ones
    /// are not processed (the client must re-send them elsewhere).
    public var goAwayAfterStreams: Int?
    /// The reason in the GOAWAY's JSON debug data.
    public var goAwayReason: String = "Shutdown"
    /// Reset every Nth request with RST_STREAM(INTERNAL_ERROR) instead of answering.
    public var resetEvery: Int?
    /// Refuse every Nth request with RST_STREAM(REFUSED_STREAM): not processed.
    public var refuseEvery: Int?
    /// Never answer every Nth request (the client's request timeout must fire).
    public var stallEvery: Int?
    /// Close the TCP connection abruptly (RST, no TLS goodbye) after this many requests.
    public var closeAfterStreams: Int?
    /// Delay before each answer.
    public var latency: Latency = .none
    /// From this many requests (across all connections) on, answers take ``slowLatency`` instead of
    /// ``latency``: a slowdown at an exact point of a run, which a test polling the mock could miss.
    public var slowAfterRequests: Int?
    public var slowLatency: Latency = .none
    /// From this many requests (across all connections) on, answers are held until faults without it
    /// are set: a stall that lasts exactly until the test has done what it needed the requests in
    /// flight for, however long that took on a loaded machine. The held answers then go out at once.
    public var holdAfterRequests: Int?
    /// Per `apns-topic`: the delay before each answer to that topic instead of ``latency`` (one team's
    /// slow answers while another's are quick).
    public var topicLatency: [String: Latency] = [:]
    /// Fraction (0...1) of valid requests answered with ``errorStatus`` instead of being accepted.
    public var errorRate: Double = 0
    /// 429 (TooManyRequests), 500 (InternalServerError) or 503 (ServiceUnavailable).
    public var errorStatus: Int = 503
    /// `Retry-After` seconds sent with injected errors.
    public var retryAfterSeconds: Int?
    /// Answer the next ``forcedReasonCount`` requests (across all connections) with this reason, e.g.
    /// "ExpiredProviderToken" or "TooManyProviderTokenUpdates", after validation passed.
    public var forcedReason: String?
    public var forcedReasonCount: Int = 0
    /// Stop reading the socket for this many milliseconds after each read (a slow server).
    public var slowReadMilliseconds: Int?

    /// How long answers take.
    public enum Latency: Codable, Hashable, Sendable {
        case none
        case fixed(milliseconds: Double)
        case uniform(minimumMilliseconds: Double, maximumMilliseconds: Double)
        case exponential(meanMilliseconds: Double)

        /// One draw, in milliseconds.
        func sample() -> Double {
            switch self {
            case .none: 0
            case .fixed(let value): value
            case .uniform(let low, let high): Double.random(in: low...max(low, high))
            case .exponential(let mean): -mean * Foundation.log(Double.random(in: Double.leastNonzeroMagnitude..<1))
            }
        }
    }

    public init() {}

    /// Every key, as docs/mock.md documents them.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case goAwayAfterStreams, goAwayReason, resetEvery, refuseEvery, stallEvery, closeAfterStreams, latency, slowAfterRequests, slowLatency, holdAfterRequests, topicLatency
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
        slowAfterRequests = try container.decodeIfPresent(Int.self, forKey: .slowAfterRequests)
        slowLatency = try container.decodeIfPresent(Latency.self, forKey: .slowLatency) ?? slowLatency
        holdAfterRequests = try container.decodeIfPresent(Int.self, forKey: .holdAfterRequests)
        topicLatency = try container.decodeIfPresent([String: Latency].self, forKey: .topicLatency) ?? topicLatency
        errorRate = try container.decodeIfPresent(Double.self, forKey: .errorRate) ?? errorRate
        errorStatus = try container.decodeIfPresent(Int.self, forKey: .errorStatus) ?? errorStatus
        retryAfterSeconds = try container.decodeIfPresent(Int.self, forKey: .retryAfterSeconds)
        forcedReason = try container.decodeIfPresent(String.self, forKey: .forcedReason)
        forcedReasonCount = try container.decodeIfPresent(Int.self, forKey: .forcedReasonCount) ?? forcedReasonCount
        slowReadMilliseconds = try container.decodeIfPresent(Int.self, forKey: .slowReadMilliseconds)
    }
}
