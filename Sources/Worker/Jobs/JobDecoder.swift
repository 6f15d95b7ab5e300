public import APNsCore
import Foundation
import TLS

/// Turns a message body into a ``Job``, or a ``JobError`` that names exactly what is wrong.
///
/// Unknown fields are ignored, so producers can add their own.
public enum JobDecoder {
    public static func decode(_ envelope: JobEnvelope) -> Result<Job, JobError> {
        guard let document = try? JSONParser.parse(envelope.body, keptDepth: 1), case .object(let fields) = document
        else {
            return .failure(JobError(code: JobError.invalidJSON, detail: "the body is not a JSON object", jobID: envelope.messageID))
        }
        var reader = FieldReader(fields: fields, jobID: nil)
        do throws(JobError) {
            let id = try reader.identifier() ?? envelope.messageID
            guard let id, !id.isEmpty else {
                throw JobError(code: JobError.missingField, detail: "the job has no id (body field \"id\" or AMQP message_id)", jobID: nil)
            }
            reader.jobID = id
            return .success(try makeJob(id: id, reader: reader, envelope: envelope))
        } catch {
            return .failure(error)
        }
    }

    private static func makeJob(id: String, reader: FieldReader, envelope: JobEnvelope) throws(JobError) -> Job {
        guard case .object = reader.fields["payload"] else {
            if let payload = reader.fields["payload"] {
                throw reader.invalid("payload", "must be a JSON object, not \(payload.typeName)")
            }
            throw reader.missing("payload")
        }
        let payload = JSONMemberSpan.value(of: "payload", in: envelope.body).map { Array(envelope.body[$0]) } ?? []
        let environment = try reader.string("environment").map { name throws(JobError) in
            guard let environment = APNsEnvironment(rawValue: name) else {
                throw reader.invalid("environment", "must be production or development, not \(name)")
            }
            return environment
        }
        do {
            let request = try NotificationRequest(
                deviceToken: DeviceToken(hex: try reader.requiredString("device_token")),
                topic: try reader.requiredString("topic"),
                pushType: PushType(headerValue: try reader.string("push_type") ?? "alert"),
                priority: try reader.integer("priority").map { value throws(NotificationError) in
                    try NotificationPriority(headerValue: String(value))
                },
                expiration: try reader.integer("expiration").map(NotificationExpiration.init(epochSeconds:)),
                collapseID: try reader.string("collapse_id").map(CollapseID.init),
                apnsID: try reader.string("apns_id").map(APNsID.init) ?? derivedAPNsID(jobID: id),
                payload: payload
            )
            return Job(
                id: id, request: request, credentialName: try reader.string("credential"), environment: environment,
                deadline: try reader.number("deadline").map { Date(timeIntervalSince1970: $0) },
                replyTo: envelope.replyTo, previousAttempts: envelope.previousAttempts, previousDeferrals: envelope.previousDeferrals
            )
        } catch let error as NotificationError {
            throw JobError(error, jobID: id)
        } catch let error as JobError {
            throw error
        } catch {
            throw JobError(code: JobError.invalidField, detail: "\(error)", jobID: id)
        }
    }

    /// The apns-id of a job that names none: derived from the job id, so a redelivered or retried job
    /// reuses it and APNs' logs tie every attempt together.
    public static func derivedAPNsID(jobID: String) -> APNsID {
        APNsID(bytes: Array(SHA256.hash(Array("apns-worker job \(jobID)".utf8)).prefix(16)), version: 8)
    }
}
