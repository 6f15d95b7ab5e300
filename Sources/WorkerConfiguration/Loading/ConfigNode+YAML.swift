import Yams

extension ConfigNode {
    /// Parses one YAML document; a syntax error is reported at `path` and gives `nil`.
    static func parse(yaml: String, origin: String?, path: String, log: ProblemLog) -> ConfigNode? {
        let root: Node?
        do {
            // `.basic`: no tag resolution. The configuration reads every scalar as text and types it
            // itself, and Yams' default resolver matches each scalar against regular expressions
            // compiled by ICU, whose tables then stay in the worker's memory: 1.5 MiB of RSS
            // (`apns-bench memory`), for tags nothing reads.
            root = try Yams.compose(yaml: yaml, .basic)
        } catch {
            let source = origin.map { "the value of environment variable \($0)" } ?? "the file"
            log.report(path, "\(source) is not valid YAML: \(YAMLErrorText.describe(error))")
            return nil
        }
        guard let root else { return ConfigNode(.null, origin: origin) }
        return ConfigNode(root, origin: origin, path: path, log: log)
    }

    private init(_ node: Node, origin: String?, path: String, log: ProblemLog) {
        self.origin = origin
        switch node {
        case .scalar(let scalar):
            // Only an unquoted null spelling is null; "null" in quotes is the word.
            let nullSpellings: Set<String> = ["", "~", "null", "Null", "NULL"]
            value = scalar.style == .plain && nullSpellings.contains(scalar.string) ? .null : .scalar(scalar.string)
        case .sequence(let sequence):
            value = .list(sequence.enumerated().map { index, item in
                ConfigNode(item, origin: origin, path: KeyPath.index(path, index), log: log)
            })
        case .mapping(let mapping):
            var entries: [Entry] = []
            for (keyNode, valueNode) in mapping {
                guard case .scalar(let key) = keyNode else {
                    log.report(path, "has a key that is not a plain name")
                    continue
                }
                // Yams itself refuses a mapping with a duplicated key, so each key is unique here.
                let childPath = KeyPath.child(path, key.string)
                entries.append(Entry(key: key.string, node: ConfigNode(valueNode, origin: origin, path: childPath, log: log)))
            }
            value = .map(entries)
        case .alias:
            log.report(path, "uses a YAML alias, which the configuration does not support")
            value = .null
        }
    }
}
