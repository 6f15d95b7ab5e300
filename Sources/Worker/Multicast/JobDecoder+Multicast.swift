import APNsCore
import JSON

/// Reading a multicast job's `device_tokens` and `results`.
extension JobDecoder {
    /// The job's multicast tokens, or nil for a single-device job. A listed entry that is not a device
    /// token is answered on its own (`BadDeviceToken`), so one bad token does not fail the rest; a job
    /// with no valid token at all fails as a whole.
    static func multicast(_ reader: FieldReader) throws(JobError) -> Multicast? {
        guard let member = reader.present("device_tokens") else { return nil }
        if reader.present("device_token") != nil {
            throw reader.invalid("device_tokens", "cannot be given together with \"device_token\"")
        }
        if reader.present("apns_id") != nil {
            throw reader.invalid("apns_id", "cannot be given with \"device_tokens\": each token's apns-id is derived from the job id and the token")
        }
        guard member.kind == .array, case .array(let items)? = try? JSONReader.parse(Array(reader.members.bytes(of: member))) else {
            throw reader.invalid("device_tokens", "must be an array of device tokens, not \(member.kind)")
        }
        guard !items.isEmpty else { throw reader.invalid("device_tokens", "is empty") }
        guard items.count <= Multicast.maximumTokens else {
            throw reader.invalid("device_tokens", "lists \(items.count) tokens; at most \(Multicast.maximumTokens) are accepted")
        }
        var tokens: [DeviceToken] = []
        tokens.reserveCapacity(items.count)
        var seen = Set<DeviceToken>(minimumCapacity: items.count)
        var invalid: [Multicast.InvalidToken] = []
        var repeated = 0
        for item in items {
            guard case .string(let text) = item else {
                invalid.append(Multicast.InvalidToken(text: "\(item.kind)", detail: "a device token must be a string, not \(item.kind)"))
                continue
            }
            do throws(NotificationError) {
                let token = try DeviceToken(hex: text)
                if seen.insert(token).inserted { tokens.append(token) } else { repeated += 1 }
            } catch {
                invalid.append(Multicast.InvalidToken(text: UntrustedText.quoted(text), detail: error.detail))
            }
        }
        guard !tokens.isEmpty else {
            throw JobError(code: APNsReason.badDeviceToken.name, detail: "none of the \(items.count) entries of \"device_tokens\" is a device token", jobID: reader.jobID)
        }
        return Multicast(tokens: tokens, invalidTokens: invalid, repeatedTokens: repeated, resultStyle: try resultStyle(reader))
    }

    private static func resultStyle(_ reader: FieldReader) throws(JobError) -> Multicast.ResultStyle {
        guard let name = try reader.string("results") else { return .summary }
        guard let style = Multicast.ResultStyle(rawValue: name) else {
            throw reader.invalid("results", "must be \"summary\" or \"per_token\", not \(UntrustedText.quoted(name))")
        }
        return style
    }
}
