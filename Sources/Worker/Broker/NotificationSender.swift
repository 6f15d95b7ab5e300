public import APNsClient
public import APNsCore

/// What the worker needs from APNs: send one notification, or one broadcast-channel request, with a
/// credential to an endpoint; `urgent` for the urgent lane's jobs, which go ahead of the others.
public protocol NotificationSender: Sendable {
    /// Sends one notification without a task: `completion` hears the answer (or why there is none)
    /// once, where it arrived. A single-device job is sent this way and concluded in `completion`.
    func send(
        _ request: NotificationRequest, credential: APNsCredential, endpoint: APNsEndpoint, urgent: Bool,
        completion: @escaping @Sendable (Result<APNsResponse, APNsSendError>) -> Void
    )
    /// The same for a task (a multicast job's senders), which waits for the answer.
    func send(_ request: NotificationRequest, credential: APNsCredential, endpoint: APNsEndpoint, urgent: Bool) async throws -> APNsResponse
    func send(_ request: ChannelRequest, credential: APNsCredential, endpoint: APNsEndpoint, urgent: Bool) async throws -> APNsResponse
}

extension APNsClient: NotificationSender {}
