public import APNsClient
public import APNsCore

/// What the worker needs from APNs: send one notification, or one broadcast-channel request, with a
/// credential to an endpoint; `urgent` for the urgent lane's jobs, which go ahead of the others.
public protocol NotificationSender: Sendable {
    func send(_ request: NotificationRequest, credential: APNsCredential, endpoint: APNsEndpoint, urgent: Bool) async throws -> APNsResponse
    func send(_ request: ChannelRequest, credential: APNsCredential, endpoint: APNsEndpoint, urgent: Bool) async throws -> APNsResponse
}

extension APNsClient: NotificationSender {}
