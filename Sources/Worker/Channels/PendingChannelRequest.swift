import AMQP
import APNsClient
import APNsCore

/// A channel job cleared for APNs, with what its result needs once APNs answers.
final class PendingChannelRequest: Sendable {
    let job: ChannelJob
    let context: ResultContext
    let credential: APNsCredential
    let credentialName: String
    let endpoint: APNsEndpoint

    /// Names this delivery in ``AnsweredOutcomes``.
    var outcomeKey: AnsweredOutcomes.Key {
        AnsweredOutcomes.Key(jobID: job.id, previousAttempts: job.previousAttempts, message: context.delivery.message)
    }

    init(job: ChannelJob, context: ResultContext, credential: APNsCredential, credentialName: String, endpoint: APNsEndpoint) {
        self.job = job
        self.context = context
        self.credential = credential
        self.credentialName = credentialName
        self.endpoint = endpoint
    }
}
