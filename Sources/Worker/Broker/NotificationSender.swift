public import APNsClient
public import APNsCore

/// What the worker needs from APNs: send one notification, or one broadcast-channel request, with a
/// credential to an endpoint.
public protocol NotificationSender: Sendable {
    func send(_ request: NotificationRequest, credential: APNsCredential, endpoint: APNsEndpoint) async throws -> APNsResponse
    func send(_ request: ChannelRequest, credential: APNsCredential, endpoint: APNsEndpoint) async throws -> APNsResponse
}

extension APNsClient: NotificationSender {}
