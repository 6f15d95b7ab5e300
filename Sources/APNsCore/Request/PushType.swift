/// The `apns-push-type` header: what kind of notification this is.
///
/// `unknown` keeps a value this version does not know (from a newer job producer, or received by the mock
/// server), so decoding never fails on it; a request with an unknown type is refused by validation.
public enum PushType: Hashable, Sendable, CustomStringConvertible {
    case alert
    case background
    case location
    case voip
    case complication
    case fileProvider
    case mdm
    case liveActivity
    case pushToTalk
    case widgets
    case controls
    case unknown(String)

    /// Every push type APNs documents, in the reference's order.
    public static let known: [PushType] = [
        .alert, .background, .location, .voip, .complication, .fileProvider, .mdm, .liveActivity, .pushToTalk,
        .widgets, .controls,
    ]

    /// Decodes a header value; values are case-sensitive, as APNs treats them.
    public init(headerValue: String) {
        self = Self.known.first { $0.headerValue == headerValue } ?? .unknown(headerValue)
    }

    /// The value of the `apns-push-type` header.
    public var headerValue: String {
        switch self {
        case .alert: "alert"
        case .background: "background"
        case .location: "location"
        case .voip: "voip"
        case .complication: "complication"
        case .fileProvider: "fileprovider"
        case .mdm: "mdm"
        case .liveActivity: "liveactivity"
        case .pushToTalk: "pushtotalk"
        case .widgets: "widgets"
        case .controls: "controls"
        case .unknown(let value): value
        }
    }

    public var description: String { headerValue }
}
