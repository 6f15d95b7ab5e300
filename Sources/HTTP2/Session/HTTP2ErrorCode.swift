/// The error codes of RST_STREAM and GOAWAY frames (RFC 9113 §7); unknown codes are kept.
public struct HTTP2ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let noError = HTTP2ErrorCode(rawValue: 0x0)
    public static let protocolError = HTTP2ErrorCode(rawValue: 0x1)
    public static let internalError = HTTP2ErrorCode(rawValue: 0x2)
    public static let flowControlError = HTTP2ErrorCode(rawValue: 0x3)
    public static let streamClosed = HTTP2ErrorCode(rawValue: 0x5)
    /// The stream was not processed at all: safe to send again, on any connection.
    public static let refusedStream = HTTP2ErrorCode(rawValue: 0x7)
    public static let cancel = HTTP2ErrorCode(rawValue: 0x8)
    public static let enhanceYourCalm = HTTP2ErrorCode(rawValue: 0xB)

    public var description: String {
        switch self {
        case .noError: "NO_ERROR"
        case .protocolError: "PROTOCOL_ERROR"
        case .internalError: "INTERNAL_ERROR"
        case .flowControlError: "FLOW_CONTROL_ERROR"
        case .streamClosed: "STREAM_CLOSED"
        case .refusedStream: "REFUSED_STREAM"
        case .cancel: "CANCEL"
        case .enhanceYourCalm: "ENHANCE_YOUR_CALM"
        default: "0x\(String(rawValue, radix: 16))"
        }
    }
}
