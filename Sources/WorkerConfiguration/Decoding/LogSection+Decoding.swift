extension LogSection {
    static func decode(_ node: ConfigNode?, path: String, log: ProblemLog) -> LogSection {
        var reader = MappingReader(node, path: path, log: log)
        var section = LogSection()
        section.level = reader.value("level", default: section.level, Parse.choice(Level.self))
        section.format = reader.value("format", default: section.format, Parse.choice(Format.self))
        reader.reportUnknownKeys()
        return section
    }
}
