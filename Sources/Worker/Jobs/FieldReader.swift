import APNsCore
import JSON

/// Typed access to a job's top-level JSON fields, with errors that name the field and never echo more
/// of a bad value than a short, escaped excerpt.
struct FieldReader {
    let members: JSONObjectMembers
    var jobID: String?

    /// A string field; nil when absent or null.
    func string(_ name: String) throws(JobError) -> String? {
        guard let member = present(name) else { return nil }
        guard let value = members.string(member) else { throw invalid(name, "must be a string, not \(member.kind)") }
        return value
    }

    func requiredString(_ name: String) throws(JobError) -> String {
        guard let value = try string(name) else { throw missing(name) }
        return value
    }

    /// A string that names something (a credential): at most `maximumBytes`, no control characters.
    func name(_ name: String, maximumBytes: Int = 255) throws(JobError) -> String? {
        guard let value = try string(name) else { return nil }
        guard !value.isEmpty, value.utf8.count <= maximumBytes else {
            throw invalid(name, "must have 1 to \(maximumBytes) bytes, not \(value.utf8.count)")
        }
        guard !UntrustedText.containsControl(value) else { throw invalid(name, "must not contain control characters") }
        return value
    }

    /// An integer field within 64 bits; nil when absent or null.
    func integer(_ name: String) throws(JobError) -> Int64? {
        guard let member = present(name) else { return nil }
        guard let value = members.integer(member) else {
            let what = member.kind == .number(isInteger: true) ? "an integer beyond 64 bits" : "\(member.kind)"
            throw invalid(name, "must be an integer, not \(what)")
        }
        return value
    }

    /// A number field in `range`; nil when absent or null.
    func number(_ name: String, in range: ClosedRange<Double>) throws(JobError) -> Double? {
        guard let member = present(name) else { return nil }
        guard let value = members.double(member) else { throw invalid(name, "must be a number, not \(member.kind)") }
        guard range.contains(value) else { throw invalid(name, "must be between \(Int64(range.lowerBound)) and \(Int64(range.upperBound))") }
        return value
    }

    /// The member called `name`, unless it is absent or null (both mean "not given").
    func present(_ name: String) -> JSONMember? {
        guard let member = members[name], member.kind != .null else { return nil }
        return member
    }

    func missing(_ name: String) -> JobError {
        JobError(code: JobError.missingField, detail: "the job has no \"\(name)\"", jobID: jobID)
    }

    func invalid(_ name: String, _ problem: String) -> JobError {
        JobError(code: JobError.invalidField, detail: "\"\(name)\" \(problem)", jobID: jobID)
    }
}
