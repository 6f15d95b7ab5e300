/// Which APNs service a credential and its device tokens belong to.
public enum APNsEnvironment: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case production
    /// The sandbox, for apps signed with a development provisioning profile.
    case development

    /// The default host; port 443 (or 2197 where 443 is blocked).
    public var host: String {
        switch self {
        case .production: "api.push.apple.com"
        case .development: "api.sandbox.push.apple.com"
        }
    }

    public static let defaultPort = 443

    public var description: String { rawValue }
}
