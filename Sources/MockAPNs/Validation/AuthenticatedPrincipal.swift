/// Who a request was authenticated as, which decides the topics it may push to.
enum AuthenticatedPrincipal: Sendable {
    /// A client certificate; its topics are its bundle id with the suffixes of the push types it allows.
    case certificate(bundleID: String)
    /// A provider token of this team; its topics are the team's bundle ids with any push type's suffix.
    case team(id: String)

    /// The team to bind the connection to when the push is accepted.
    var teamID: String? {
        switch self {
        case .certificate: nil
        case .team(let id): id
        }
    }
}
