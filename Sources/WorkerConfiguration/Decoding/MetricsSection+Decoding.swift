extension MetricsSection {
    static func decode(_ node: ConfigNode?, path: String, log: ProblemLog) -> MetricsSection {
        var reader = MappingReader(node, path: path, log: log)
        var section = MetricsSection()
        section.host = reader.value("host", default: section.host, Parse.string)
        section.port = reader.optional("port", default: section.port, Parse.int(1...65535))
        reader.reportUnknownKeys()
        return section
    }
}
