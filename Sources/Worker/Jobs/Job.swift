public import APNsCore
public import Foundation

/// One notification job, decoded and validated: everything needed to send it and report on it.
public struct Job: Sendable {
    public let id: String
    /// The request exactly as it will go to APNs (topic, push type, priority, payload checked).
    public let request: NotificationRequest
    /// The credential named by the job; `nil` means "chosen by topic".
    public let credentialName: String?
    /// The APNs environment named by the job; `nil` means the credential's own.
    public let environment: APNsEnvironment?
    /// Past this time the job is not retried any more (it ends `expired`).
    public let deadline: Date?
    /// Where the result goes instead of the results exchange (the AMQP RPC habit).
    public let replyTo: String?
    /// APNs attempts already made for this job (from the `retry-attempt` header of a retried copy).
    public let previousAttempts: Int
    /// Tries APNs never processed (no stream free in time, connection refused…), which do not count as
    /// attempts but are bounded too (the `retry-deferred` header).
    public let previousDeferrals: Int
    /// The devices of a multicast job (`device_tokens`); nil for a job to one device. The request then
    /// holds the first token, and each token is sent as `request.addressed(to:apnsID:)`.
    public let multicast: Multicast?

    public init(
        id: String,
        request: NotificationRequest,
        credentialName: String?,
        environment: APNsEnvironment?,
        deadline: Date?,
        replyTo: String?,
        previousAttempts: Int,
        previousDeferrals: Int = 0,
        multicast: Multicast? = nil
    ) {
        self.id = id
        self.request = request
        self.credentialName = credentialName
        self.environment = environment
        self.deadline = deadline
        self.replyTo = replyTo
        self.previousAttempts = previousAttempts
        self.previousDeferrals = previousDeferrals
        self.multicast = multicast
    }
}
