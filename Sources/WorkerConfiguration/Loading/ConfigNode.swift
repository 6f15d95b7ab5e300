/// One node of the configuration tree: the file's YAML with environment overrides applied on top.
///
/// Scalars stay text: what a value means is decided by the key it sits under, so `name: 123` is the
/// string "123" and `port: "9090"` is the number 9090.
struct ConfigNode {
    enum Value {
        /// `null`, `~` or nothing at all: the key's default (or "none", where a key documents that).
        case null
        case scalar(String)
        case list([ConfigNode])
        case map([Entry])
    }

    struct Entry {
        var key: String
        var node: ConfigNode
    }

    var value: Value
    /// The environment variable that set this node, so a problem with it names where it came from.
    var origin: String?

    init(_ value: Value, origin: String? = nil) {
        self.value = value
        self.origin = origin
    }

    var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// Appended to a problem's message when the value came from the environment.
    var originNote: String {
        origin.map { " (set by environment variable \($0))" } ?? ""
    }
}
