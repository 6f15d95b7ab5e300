import AMQP
import JSON
import WorkerConfiguration

/// The credential a delivery will be sent with, found before the job is decoded, so the intake can give
/// each credential its share of the job slots (``LaneQueue``).
///
/// A retry copy names it in its `credential` header (no reading of the body at all); otherwise the
/// body's `credential`, else the credential serving its `topic` (a channel job's `bundle_id`), as
/// ``JobProcessor`` will choose. Nil when there is none to find: such a job (malformed, or for no
/// credential of this worker) never reaches APNs and holds its slot for microseconds.
enum CredentialPeek {
    static func entry(for message: AMQPMessage, in registry: CredentialRegistry) -> CredentialRegistry.Entry? {
        if case .string(let name)? = message.properties.headers[RetryHeaders.credential] {
            return registry.entry(named: name)
        }
        let members = JSONReader.readObject(message.body).members
        if let name = text("credential", in: members) { return registry.entry(named: name) }
        guard let topic = text("topic", in: members) ?? text("bundle_id", in: members) else { return nil }
        return registry.entry(forTopic: topic)
    }

    private static func text(_ name: String, in members: JSONObjectMembers) -> String? {
        members[name].flatMap(members.string)
    }
}
