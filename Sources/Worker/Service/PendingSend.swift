import AMQP
import APNsClient
import APNsCore

/// A decoded job cleared for APNs, with what its result will need once APNs answers.
///
/// A class so that the async frames waiting for APNs (thousands at a time, for as long as APNs takes)
/// hold one reference instead of copies of the job, its delivery and its credential.
final class PendingSend: Sendable {
    let job: Job
    /// The job's delivery and the fields every result shares.
    let context: ResultContext
    let credential: APNsCredential
    /// The credential's configured name: in results, logs and pauses.
    let credentialName: String
    let endpoint: APNsEndpoint

    /// Names this delivery in ``AnsweredOutcomes`` (computed only when its publications fail).
    var outcomeKey: AnsweredOutcomes.Key {
        AnsweredOutcomes.Key(jobID: job.id, previousAttempts: job.previousAttempts, message: context.delivery.message)
    }

    init(job: Job, context: ResultContext, credential: APNsCredential, credentialName: String, endpoint: APNsEndpoint) {
        self.job = job
        self.context = context
        self.credential = credential
        self.credentialName = credentialName
        self.endpoint = endpoint
    }
}
