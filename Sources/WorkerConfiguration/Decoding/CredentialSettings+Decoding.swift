import APNsCore

extension CredentialSettings {
    private static let tokenKeys = ["team_id", "key_id", "key_file", "allow_insecure_key_permissions", "refresh_age"]
    private static let certificateKeys = ["p12_file", "p12_password_file", "certificate_file", "key_file"]
    /// The keys the credential's key or certificate is loaded from: with one of them refused, loading
    /// would only report its placeholder; with any other refused (`environment`, `topics`), loading
    /// still finds a missing or exposed key file.
    static let authenticationKeys = Set(["type"] + tokenKeys + certificateKeys)

    /// Reads one credential; with problems the result holds placeholders and only serves cross-checks.
    static func decode(_ node: ConfigNode, path: String, log: ProblemLog) -> CredentialSettings {
        var reader = MappingReader(node, path: path, log: log)
        let name = reader.required("name", Parse.string) ?? ""
        let environment = reader.value("environment", default: APNsEnvironment.production, Parse.choice(APNsEnvironment.self))
        let connections = reader.optional("connections", Parse.int(1...100))
        let weight = reader.value("weight", default: 1, Parse.int(1...1000))
        let rateLimit = reader.optional("rate_limit", Parse.int(1...1_000_000))
        let topicRateLimits = reader.value("topic_rate_limits", default: [:], Parse.topicRates)
        let topics = reader.list("topics", default: [], Parse.topic)
        let proxy = reader.optional("proxy") { try Parse.proxy($0, bypass: []) }
        reader.skip(["type"])  // `type: null` is the inferred type, not an unknown key
        // A refused type reads as nil, so the keys of neither kind are checked against it.
        let type = !reader.has("type") ? inferredType(reader) : reader.required("type") { node in
            let value = try Parse.text(node)
            guard value == "token" || value == "certificate" else {
                throw ValueRefusal("must be token or certificate, not \"\(value)\"")
            }
            return value
        }
        var kind = CredentialKind.pem(certificateFile: "", keyFile: "")
        switch type {
        case "token":
            kind = decodeToken(&reader)
            reader.reportUnknownKeys(explanations: explain(["p12_file", "p12_password_file", "certificate_file"], "certificate"))
        case "certificate":
            kind = decodeCertificate(&reader)
            reader.reportUnknownKeys(explanations: explain(["team_id", "key_id", "refresh_age", "allow_insecure_key_permissions"], "token"))
        default:
            // The type is already reported; its keys would only add noise.
            reader.skip(tokenKeys + certificateKeys)
            reader.reportUnknownKeys()
        }
        var settings = CredentialSettings(name: name, kind: kind, environment: environment, connections: connections, topics: topics, proxy: proxy, weight: weight)
        settings.rateLimit = rateLimit
        settings.topicRateLimits = topicRateLimits
        return settings
    }

    /// Without `type`, the keys given say which kind is meant; keys of both kinds leave it to `type`.
    private static func inferredType(_ reader: MappingReader) -> String? {
        let certificate = ["p12_file", "p12_password_file", "certificate_file"].contains(where: reader.has)
        let token = ["team_id", "key_id", "refresh_age", "allow_insecure_key_permissions"].contains(where: reader.has)
        guard certificate, token else { return certificate ? "certificate" : "token" }
        reader.log.report(reader.childPath("type"), "is required here: the keys given belong to both token and certificate credentials")
        return nil
    }

    private static func decodeToken(_ reader: inout MappingReader) -> CredentialKind {
        let teamID = reader.required("team_id", Parse.appleIdentifier, because: "is required for a token credential")
        let keyID = reader.required("key_id", Parse.appleIdentifier, because: "is required for a token credential")
        let keyFile = reader.required("key_file", Parse.string, because: "is required for a token credential")
        let allowInsecure = reader.value("allow_insecure_key_permissions", default: false, Parse.bool)
        let refreshAge = reader.value("refresh_age", default: ProviderTokenPolicy.defaultRefreshAge) { node in
            let accepted = ProviderTokenPolicy.acceptedRefreshAges
            let age = try Parse.duration(.zero...(.seconds(86_400)))(node).timeInterval
            guard accepted.contains(age) else {
                throw ValueRefusal(
                    "must be between \(Int(accepted.lowerBound / 60))m and \(Int(accepted.upperBound / 60))m: APNs refuses "
                        + "token changes within 20 minutes and tokens older than 60, not \(DurationText.format(.milliseconds(Int64(age * 1000))))"
                )
            }
            return age
        }
        return .token(teamID: teamID ?? "", keyID: keyID ?? "", keyFile: keyFile ?? "", allowInsecureKeyPermissions: allowInsecure, refreshAge: refreshAge)
    }

    private static func decodeCertificate(_ reader: inout MappingReader) -> CredentialKind {
        let p12File = reader.optional("p12_file", Parse.string)
        let passwordFile = reader.optional("p12_password_file", Parse.string)
        let certificateFile = reader.optional("certificate_file", Parse.string)
        let keyFile = reader.optional("key_file", Parse.string)
        let givesP12 = reader.has("p12_file") || reader.has("p12_password_file")
        let givesPEM = reader.has("certificate_file") || reader.has("key_file")
        if givesP12, givesPEM {
            reader.log.report(reader.path, "gives both p12_file and certificate_file/key_file; a certificate credential uses one or the other")
        } else if givesPEM {
            if !reader.has("certificate_file") { reader.log.report(reader.childPath("certificate_file"), "is required with key_file") }
            if !reader.has("key_file") { reader.log.report(reader.childPath("key_file"), "is required with certificate_file") }
            return .pem(certificateFile: certificateFile ?? "", keyFile: keyFile ?? "")
        } else if !reader.has("p12_file") {
            reader.log.report(reader.childPath("p12_file"), "is required for a certificate credential (or certificate_file and key_file)")
        }
        return .pkcs12(file: p12File ?? "", passwordFile: passwordFile)
    }

    private static func explain(_ keys: [String], _ otherType: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: keys.map { ($0, "applies to \(otherType) credentials only, and this one is not") })
    }
}
