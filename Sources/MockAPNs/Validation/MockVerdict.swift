public import APNsCore

/// The mock's answer to one request: accepted, or refused with the status and reason APNs would send.
public enum MockVerdict: Equatable, Sendable {
    case accept
    /// `timestampMilliseconds` is set only with 410, as APNs sends `timestamp` only then.
    case reject(status: Int, reason: APNsReason, timestampMilliseconds: Int64? = nil)

    /// The `:status` of the response.
    public var status: Int {
        switch self {
        case .accept: 200
        case .reject(let status, _, _): status
        }
    }

    /// The reason of a rejection; `nil` when accepted.
    public var reason: APNsReason? {
        switch self {
        case .accept: nil
        case .reject(_, let reason, _): reason
        }
    }
}
