/// Typed access to a job's JSON fields, with errors that name the field.
struct FieldReader {
    let fields: [String: JSONValue]
    var jobID: String?

    /// The job id: a string, or an integer written as a number.
    func identifier() throws(JobError) -> String? {
        switch fields["id"] {
        case nil, .null: return nil
        case .string(let value): return value
        case .integer(let value): return String(value)
        case .some(let other): throw invalid("id", "must be a string, not \(other.typeName)")
        }
    }

    func string(_ name: String) throws(JobError) -> String? {
        switch fields[name] {
        case nil, .null: return nil
        case .string(let value): return value
        case .some(let other): throw invalid(name, "must be a string, not \(other.typeName)")
        }
    }

    func requiredString(_ name: String) throws(JobError) -> String {
        guard let value = try string(name) else { throw missing(name) }
        return value
    }

    func integer(_ name: String) throws(JobError) -> Int64? {
        switch fields[name] {
        case nil, .null: return nil
        case .integer(let value): return value
        case .some(let other): throw invalid(name, "must be an integer, not \(other.typeName)")
        }
    }

    func number(_ name: String) throws(JobError) -> Double? {
        switch fields[name] {
        case nil, .null: return nil
        case .integer(let value): return Double(value)
        case .number(let value): return value
        case .some(let other): throw invalid(name, "must be a number, not \(other.typeName)")
        }
    }

    func missing(_ name: String) -> JobError {
        JobError(code: JobError.missingField, detail: "the job has no \"\(name)\"", jobID: jobID)
    }

    func invalid(_ name: String, _ problem: String) -> JobError {
        JobError(code: JobError.invalidField, detail: "\"\(name)\" \(problem)", jobID: jobID)
    }
}
