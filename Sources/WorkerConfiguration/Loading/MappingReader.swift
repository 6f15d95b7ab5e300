/// Reads one mapping of the configuration: each key through a parser, problems into the log under the
/// key's path, and at the end every key nobody asked for as unknown (typo protection).
struct MappingReader {
    let path: String
    let log: ProblemLog
    private let entries: [ConfigNode.Entry]
    private var asked: Set<String> = []

    /// `node` absent or null reads as an empty mapping: a section whose keys are all commented out.
    init(_ node: ConfigNode?, path: String, log: ProblemLog) {
        self.path = path
        self.log = log
        switch node?.value {
        case .map(let entries): self.entries = entries
        case .none, .null: entries = []
        case .scalar, .list: 
            log.report(path, "must be a mapping of keys to values" + (node?.originNote ?? ""))
            entries = []
        }
    }

    func childPath(_ key: String) -> String { KeyPath.child(path, key) }

    /// The node under `key`, `nil` when absent or null.
    mutating func node(_ key: String) -> ConfigNode? {
        asked.insert(key)
        return peek(key)
    }

    /// The node under `key` without marking it as read; `nil` when absent or null.
    func peek(_ key: String) -> ConfigNode? {
        entries.first { $0.key == key && !$0.node.isNull }?.node
    }

    /// Whether `key` is present with a non-null value (without marking it as read).
    func has(_ key: String) -> Bool { peek(key) != nil }

    /// Marks keys as read without reading them, when an earlier problem makes them meaningless.
    mutating func skip(_ keys: [String]) {
        asked.formUnion(keys)
    }

    /// The value of `key`, or `fallback` when the key is absent, null, or refused (the refusal is logged).
    mutating func value<T>(_ key: String, default fallback: T, _ parse: (ConfigNode) throws -> T) -> T {
        guard let node = node(key) else { return fallback }
        return Self.parse(node, at: childPath(key), with: parse, log: log) ?? fallback
    }

    /// For keys where null means "none": absent gives `fallback`, null gives `nil`.
    mutating func optional<T>(_ key: String, default fallback: T? = nil, _ parse: (ConfigNode) throws -> T) -> T? {
        asked.insert(key)
        guard let entry = entries.first(where: { $0.key == key }) else { return fallback }
        if entry.node.isNull { return nil }
        return Self.parse(entry.node, at: childPath(key), with: parse, log: log)
    }

    /// A key that must be given; its absence is logged and gives `nil`.
    mutating func required<T>(_ key: String, _ parse: (ConfigNode) throws -> T, because reason: String = "is required") -> T? {
        guard let node = node(key) else {
            log.report(childPath(key), reason)
            return nil
        }
        return Self.parse(node, at: childPath(key), with: parse, log: log)
    }

    /// A list, each item parsed under its own index path; a single value counts as a list of one when
    /// `singleValueAllowed`.
    mutating func list<T>(_ key: String, default fallback: [T], singleValueAllowed: Bool = false, _ parse: (ConfigNode) throws -> T) -> [T] {
        guard let node = node(key) else { return fallback }
        let path = childPath(key)
        switch node.value {
        case .list(let items):
            return items.enumerated().compactMap { index, item in
                Self.parse(item, at: KeyPath.index(path, index), with: parse, log: log)
            }
        case .scalar where singleValueAllowed:
            return Self.parse(node, at: path, with: parse, log: log).map { [$0] } ?? fallback
        default:
            log.report(path, "must be a list, e.g. [a, b]" + node.originNote)
            return fallback
        }
    }

    /// Logs every key that was not asked for; `explanations` replaces "unknown key" for keys that are
    /// known elsewhere (a certificate key in a token credential).
    func reportUnknownKeys(explanations: [String: String] = [:]) {
        for entry in entries where !asked.contains(entry.key) {
            let message = explanations[entry.key] ?? KeySuggestion.unknownKeyMessage(entry.key, known: asked)
            log.report(childPath(entry.key), message + entry.node.originNote)
        }
    }

    static func parse<T>(_ node: ConfigNode, at path: String, with parse: (ConfigNode) throws -> T, log: ProblemLog) -> T? {
        do {
            return try parse(node)
        } catch let refusal as ValueRefusal {
            log.report(path, refusal.message + node.originNote)
        } catch {
            log.report(path, "\(error)" + node.originNote)
        }
        return nil
    }
}
