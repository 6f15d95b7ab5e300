extension AMQPTLSSection {
    static func decode(_ node: ConfigNode?, path: String, log: ProblemLog) -> AMQPTLSSection {
        var reader = MappingReader(node, path: path, log: log)
        var section = AMQPTLSSection()
        section.caFile = reader.optional("ca_file", Parse.string)
        section.certificateFile = reader.optional("certificate_file", Parse.string)
        section.keyFile = reader.optional("key_file", Parse.string)
        section.verifyPeer = reader.value("verify_peer", default: section.verifyPeer, Parse.bool)
        section.verifyHostname = reader.value("verify_hostname", default: section.verifyHostname, Parse.bool)
        if reader.has("certificate_file") != reader.has("key_file") {
            let missing = reader.has("certificate_file") ? "key_file" : "certificate_file"
            let given = missing == "key_file" ? "certificate_file" : "key_file"
            log.report(reader.childPath(missing), "is required with \(given)")
        }
        reader.reportUnknownKeys()
        return section
    }
}
