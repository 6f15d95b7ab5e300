import APNsCore
import Foundation
import JSON

/// Turns a message body into a ``Job``, or a ``JobError`` that names exactly what is wrong.
///
/// Every value that later becomes an HTTP/2 header, an AMQP short string or a log field is checked here,
/// at the boundary, against the limits docs/messages.md and schemas/job.schema.json state: a job that
/// cannot be carried fails alone, before it touches a connection. Unknown fields are ignored (but must
/// be valid JSON), so producers can add their own.
public enum JobDecoder {
    /// The largest body accepted, in bytes: far above any real job (a payload has at most 5 KiB), it
    /// bounds what one message may cost. A larger body is still read, to answer it by its id.
    public static let maximumBodySize = 2 << 20

    /// Latest `deadline` accepted (in seconds since 1970; the year 5138): beyond it is a unit mistake.
    static let latestDeadline: Double = 100_000_000_000

    /// A job to devices; a channel job (``decodeAny(_:)``) is refused here with `InvalidField`.
    public static func decode(_ envelope: JobEnvelope) -> Result<Job, JobError> {
        decodeAny(envelope).flatMap { decoded in
            switch decoded {
            case .notification(let job): .success(job)
            case .channel(let job): .failure(JobError(code: JobError.invalidField, detail: "a channel job, not a notification", jobID: job.id))
            }
        }
    }

    /// Any job: a notification to one or many devices, or a broadcast-channel job (`channel_id` or
    /// `channel_action`).
    public static func decodeAny(_ envelope: JobEnvelope) -> Result<DecodedJob, JobError> {
        let reading = JSONReader.readObject(envelope.body)
        // On a syntax error the members read before it are kept: a job whose payload is broken still
        // has the id it gave first.
        let id: String?
        do throws(JobError) {
            id = try JobIdentifier.read(reading.members, messageID: envelope.messageID)
        } catch {
            return .failure(error)
        }
        let answerable = id?.isEmpty == false ? id : nil
        if envelope.body.count > maximumBodySize {
            return .failure(JobError(code: JobError.jobTooLarge, detail: "the job has \(envelope.body.count) bytes; at most \(maximumBodySize) are accepted", jobID: answerable))
        }
        if let error = reading.error {
            return .failure(JobError(code: JobError.invalidJSON, detail: "the body is not a JSON object: \(error)", jobID: answerable))
        }
        guard let id, !id.isEmpty else {
            return .failure(JobError(code: JobError.missingField, detail: "the job has no id (body field \"id\" or AMQP message_id)", jobID: nil))
        }
        if let problem = JobIdentifier.problem(with: id) {
            return .failure(JobError(code: JobError.invalidField, detail: problem, jobID: id))
        }
        do throws(JobError) {
            let reader = FieldReader(members: reading.members, jobID: id)
            if let channelJob = try makeChannelJob(id: id, reader: reader, envelope: envelope) { return .success(.channel(channelJob)) }
            return .success(.notification(try makeJob(id: id, reader: reader, envelope: envelope)))
        } catch {
            return .failure(error)
        }
    }

    private static func makeJob(id: String, reader: FieldReader, envelope: JobEnvelope) throws(JobError) -> Job {
        guard let payload = reader.present("payload") else { throw reader.missing("payload") }
        guard payload.kind == .object else { throw reader.invalid("payload", "must be a JSON object, not \(payload.kind)") }
        let environment = try reader.string("environment").map { name throws(JobError) in
            guard let environment = APNsEnvironment(rawValue: name) else {
                throw reader.invalid("environment", "must be production or development, not \(UntrustedText.quoted(name))")
            }
            return environment
        }
        let multicast = try multicast(reader)
        do {
            let request = try NotificationRequest(
                deviceToken: try multicast?.tokens[0] ?? DeviceToken(hex: try reader.requiredString("device_token")),
                topic: try reader.requiredString("topic"),
                pushType: PushType(headerValue: try reader.string("push_type") ?? "alert"),
                priority: try reader.integer("priority").map { value throws(NotificationError) in
                    try NotificationPriority(headerValue: String(value))
                },
                expiration: try reader.integer("expiration").map(NotificationExpiration.init(epochSeconds:)),
                collapseID: try reader.string("collapse_id").map(CollapseID.init),
                // A multicast job's tokens each get their own (``APNsID/derived(fromJobID:token:)``).
                apnsID: multicast != nil ? nil : try reader.string("apns_id").map(APNsID.init) ?? APNsID.derived(fromJobID: id),
                payload: Array(reader.members.bytes(of: payload))
            )
            return Job(
                id: id, request: request, credentialName: try reader.name("credential"), environment: environment,
                deadline: try reader.number("deadline", in: 0...latestDeadline).map { Date(timeIntervalSince1970: $0) },
                replyTo: envelope.replyTo, previousAttempts: envelope.previousAttempts, previousDeferrals: envelope.previousDeferrals,
                multicast: multicast
            )
        } catch {
            throw JobError(reading: error, jobID: id)
        }
    }
}
