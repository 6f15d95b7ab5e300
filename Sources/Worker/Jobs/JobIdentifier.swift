import APNsCore
import JSON

/// A job's id: where it comes from, and what it may be.
///
/// An id travels back as every result's `correlation_id`, an AMQP short string, so it has at most 255
/// bytes; it is an identifier, so it has no control characters. A job whose id breaks a rule still gets
/// its `failed` result (with the id in the result's body, where any text fits), just no correlation id.
package enum JobIdentifier {
    static let maximumByteCount = 255

    /// What the job says its id is: the body's `id` (a string, or an integer read as its decimal text),
    /// else the AMQP `message_id`; nil when neither is given.
    static func read(_ members: JSONObjectMembers, messageID: String?) throws(JobError) -> String? {
        guard let member = members["id"], member.kind != .null else { return nonEmpty(messageID) }
        // The body's id wins, even empty (that is a job with a broken id, not one without).
        if let text = members.string(member) { return text }
        if let number = members.integer(member) { return String(number) }
        let what = member.kind == .number(isInteger: true) ? "an integer beyond 64 bits" : "\(member.kind)"
        throw JobError(code: JobError.invalidField, detail: "\"id\" must be a string or an integer, not \(what)", jobID: nonEmpty(messageID))
    }

    /// Why `id` cannot be a job's id, or nil when it can.
    static func problem(with id: String) -> String? {
        if id.utf8.count > maximumByteCount {
            return "the id has \(id.utf8.count) bytes; at most \(maximumByteCount) fit in a result's correlation_id"
        }
        if UntrustedText.containsControl(id) { return "the id contains control characters" }
        return nil
    }

    /// Whether `id` can go out as an AMQP `correlation_id`.
    package static func isCarriable(_ id: String) -> Bool {
        problem(with: id) == nil
    }

    private static func nonEmpty(_ text: String?) -> String? {
        text.flatMap { $0.isEmpty ? nil : $0 }
    }
}
