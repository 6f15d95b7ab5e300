/// Applies `APNS_WORKER__<PATH>` environment variables on top of the file.
///
/// `PATH` is the key path upper-cased, `__` between segments, list indices as numbers:
/// `APNS_WORKER__AMQP__HEARTBEAT=30s`, `APNS_WORKER__CREDENTIALS__0__KEY_FILE=/x.p8`. Values are YAML
/// (`[a, b]` is a list). Missing mappings and list entries are created, so a whole credential can come
/// from the environment.
enum EnvironmentOverrides {
    static let prefix = "APNS_WORKER__"

    private struct Override {
        let name: String
        let segments: [String]
        let value: String
    }

    static func apply(_ environment: [String: String], to root: inout ConfigNode, log: ProblemLog) {
        let overrides = environment.compactMap { name, value -> Override? in
            guard name.hasPrefix(prefix) else { return nil }
            let segments = name.dropFirst(prefix.count).split(separator: "__", omittingEmptySubsequences: false)
            return Override(name: name, segments: segments.map { $0.lowercased() }, value: value)
        }
        // Parents before children and index 0 before 1 (and 2 before 10), so `…__CREDENTIALS__1__NAME`
        // finds the entry `…__CREDENTIALS__0__NAME` created; the name breaks remaining ties.
        for override in overrides.sorted(by: { precedes($0.segments, $1.segments) || ($0.segments == $1.segments && $0.name < $1.name) }) {
            guard override.segments.allSatisfy({ !$0.isEmpty }) else {
                log.report(override.name, "is not a key path: segments are upper-case key names or list indices joined by __")
                continue
            }
            let path = displayPath(override.segments)
            guard let value = ConfigNode.parse(yaml: override.value, origin: override.name, path: path, log: log) else { continue }
            set(value, at: override.segments[...], in: &root, path: "", variable: override.name, log: log)
        }
    }

    private static func set(_ value: ConfigNode, at segments: ArraySlice<String>, in node: inout ConfigNode, path: String, variable: String, log: ProblemLog) {
        guard let segment = segments.first else {
            node = value
            return
        }
        let rest = segments.dropFirst()
        if node.isNull {
            node = ConfigNode(Int(segment) != nil ? .list([]) : .map([]), origin: variable)
        }
        switch node.value {
        case .map(var entries):
            let childPath = KeyPath.child(path, segment)
            if let index = entries.firstIndex(where: { $0.key == segment }) {
                set(value, at: rest, in: &entries[index].node, path: childPath, variable: variable, log: log)
            } else {
                var child = ConfigNode(.null, origin: variable)
                set(value, at: rest, in: &child, path: childPath, variable: variable, log: log)
                entries.append(ConfigNode.Entry(key: segment, node: child))
            }
            node.value = .map(entries)
        case .list(var items):
            guard let index = Int(segment), index >= 0, index <= items.count else {
                log.report(path, "is a list of \(items.count), so \(variable) must name an index from 0 to \(items.count)")
                return
            }
            if index == items.count { items.append(ConfigNode(.null, origin: variable)) }
            set(value, at: rest, in: &items[index], path: KeyPath.index(path, index), variable: variable, log: log)
            node.value = .list(items)
        case .scalar, .null:
            log.report(path, "is a single value, so \(variable) cannot set something inside it")
        }
    }

    /// Orders key paths segment by segment, numbers numerically and before names.
    private static func precedes(_ left: [String], _ right: [String]) -> Bool {
        for (a, b) in zip(left, right) where a != b {
            switch (Int(a), Int(b)) {
            case let (x?, y?): return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        }
        return left.count < right.count
    }

    /// `["credentials", "0", "key_file"]` as `credentials[0].key_file`.
    private static func displayPath(_ segments: [String]) -> String {
        segments.reduce("") { path, segment in
            Int(segment).map { KeyPath.index(path, $0) } ?? KeyPath.child(path, segment)
        }
    }
}
