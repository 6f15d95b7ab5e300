import APNsCore
/// The value parsers keys are read with; each refuses with a message naming what is allowed.
enum Parse {
    /// The text of a single value; lists and mappings are refused.
    static func text(_ node: ConfigNode) throws -> String {
        switch node.value {
        case .scalar(let text): return text
        case .list: throw ValueRefusal("must be a single value, not a list")
        case .map: throw ValueRefusal("must be a single value, not a mapping")
        case .null: throw ValueRefusal("must not be null")
        }
    }

    /// An HTTP proxy URL, `http://[user:password@]host:port`.
    static func proxy(_ node: ConfigNode, bypass: [String]) throws -> HTTPProxy {
        do {
            return try HTTPProxy(url: try string(node), bypass: bypass)
        } catch let error as ProxyConfigurationError {
            throw ValueRefusal(error.description)
        }
    }

    static func string(_ node: ConfigNode) throws -> String {
        let value = try text(node)
        guard !value.isEmpty else { throw ValueRefusal("must not be empty") }
        return value
    }

    /// A string that may be empty (an AMQP routing key).
    static func anyString(_ node: ConfigNode) throws -> String {
        try text(node)
    }

    static func int(_ range: ClosedRange<Int>) -> (ConfigNode) throws -> Int {
        { node in
            let value = try text(node)
            guard let number = Int(value) else { throw ValueRefusal("must be a whole number, not \"\(value)\"") }
            guard range.contains(number) else {
                throw ValueRefusal("must be between \(range.lowerBound) and \(range.upperBound), not \(number)")
            }
            return number
        }
    }

    static func bool(_ node: ConfigNode) throws -> Bool {
        let value = try text(node)
        switch value.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw ValueRefusal("must be true or false, not \"\(value)\"")
        }
    }

    /// A duration in `range`; `wholeSeconds` for settings the protocol counts in seconds.
    static func duration(_ range: ClosedRange<Duration>, wholeSeconds: Bool = false) -> (ConfigNode) throws -> Duration {
        { node in
            let value = try text(node)
            guard let duration = DurationText.parse(value) else {
                throw ValueRefusal("must be a duration such as 250ms, 5s, 2m, 1h or a number of seconds, not \"\(value)\"")
            }
            guard range.contains(duration) else {
                throw ValueRefusal("must be between \(DurationText.format(range.lowerBound)) and \(DurationText.format(range.upperBound)), not \(value)")
            }
            guard !wholeSeconds || duration.components.attoseconds == 0 else {
                throw ValueRefusal("must be whole seconds, not \(value)")
            }
            return duration
        }
    }

    /// One of an enumeration's raw values, exactly.
    static func choice<Choice: RawRepresentable & CaseIterable>(_: Choice.Type) -> (ConfigNode) throws -> Choice where Choice.RawValue == String {
        { node in
            let value = try text(node)
            guard let choice = Choice(rawValue: value) else {
                let allowed = Choice.allCases.map(\.rawValue)
                let list = allowed.count == 2 ? allowed.joined(separator: " or ") : allowed.joined(separator: ", ")
                throw ValueRefusal("must be \(allowed.count == 2 ? "" : "one of ")\(list), not \"\(value)\"")
            }
            return choice
        }
    }

    /// An App Store Connect team or key id: 10 upper-case letters or digits.
    static func appleIdentifier(_ node: ConfigNode) throws -> String {
        let value = try text(node)
        guard value.utf8.count == 10, value.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else {
            throw ValueRefusal("must be 10 upper-case letters or digits, as App Store Connect shows it, not \"\(value)\"")
        }
        return value
    }

    /// An `apns-topic`: a bundle id, possibly with a push type's suffix.
    static func topic(_ node: ConfigNode) throws -> String {
        let value = try string(node)
        guard !value.contains(where: { $0.isWhitespace || $0 == "/" }) else {
            throw ValueRefusal("must be a bundle id such as com.example.app, not \"\(value)\"")
        }
        return value
    }

    /// A mapping of topics to rates (notifications per second, 1...1,000,000).
    static func topicRates(_ node: ConfigNode) throws -> [String: Int] {
        guard case .map(let entries) = node.value else { throw ValueRefusal("must be a mapping of topics to notifications per second, e.g. {com.example.app: 500}") }
        var rates: [String: Int] = [:]
        for entry in entries {
            let topic = try topic(ConfigNode(.scalar(entry.key)))
            do {
                rates[topic] = try int(1...1_000_000)(entry.node)
            } catch let refusal as ValueRefusal {
                throw ValueRefusal("\(topic): \(refusal.message)")
            }
        }
        return rates
    }
}

