import Foundation

/// Job bodies for the tests, each kind with the outcome the mock will give it.
enum JobFactory {
    /// A random 32-byte token; ordinary ones start with "a" so they never take the mock's "dead"/"bad0"
    /// prefixes by chance.
    static func token(_ prefix: String = "a") -> String {
        prefix + (0..<(64 - prefix.count)).map { _ in String("0123456789abcdef".randomElement()!) }.joined()
    }

    static func alert(id: String, token: String = token(), topic: String = "com.example.app", extra: String = "") -> [UInt8] {
        Array(#"{"id":"\#(id)","device_token":"\#(token)","topic":"\#(topic)","payload":{"aps":{"alert":"hello \#(id)"}}\#(extra)}"#.utf8)
    }

    /// A multicast alert to `tokens` (listed as given, so tests can list repeats and non-tokens).
    static func multicast(id: String, tokens: [String], topic: String = "com.example.app", extra: String = "") -> [UInt8] {
        let list = tokens.map { "\"\($0)\"" }.joined(separator: ",")
        return Array(#"{"id":"\#(id)","device_tokens":[\#(list)],"topic":"\#(topic)","payload":{"aps":{"alert":"hello \#(id)"}}\#(extra)}"#.utf8)
    }

    /// The kinds of job the mixed tests send, and the status and reason each must end with.
    enum Kind: CaseIterable {
        case delivered, otherTeam, unregistered, badToken, tooLarge, wrongType, notJSON, unknownTopic

        func body(id: String) -> [UInt8] {
            switch self {
            case .delivered: alert(id: id)
            case .otherTeam: alert(id: id, topic: "com.example.other")
            case .unregistered: alert(id: id, token: token("dead"))
            case .badToken: alert(id: id, token: token("bad0"))
            case .tooLarge: Array(#"{"id":"\#(id)","device_token":"\#(token())","topic":"com.example.app","payload":{"b":"\#(String(repeating: "x", count: 5000))"}}"#.utf8)
            case .wrongType: Array(#"{"id":"\#(id)","device_token":"\#(token())","topic":"com.example.app","payload":{},"priority":"high"}"#.utf8)
            case .notJSON: Array("not json \(id)".utf8)
            case .unknownTopic: alert(id: id, topic: "com.nobody.app")
            }
        }

        /// (status, reason) of the result; nil when no result is expected (no id can be read).
        var expected: (String, String?)? {
            switch self {
            case .delivered, .otherTeam: ("delivered", nil)
            case .unregistered: ("rejected", "Unregistered")
            case .badToken: ("rejected", "BadDeviceToken")
            case .tooLarge: ("failed", "PayloadTooLarge")
            case .wrongType: ("failed", "InvalidField")
            case .notJSON: nil
            case .unknownTopic: ("failed", "UnknownCredential")
            }
        }

        /// Whether the job also ends as a dead letter.
        var deadLetters: Bool {
            switch self {
            case .tooLarge, .wrongType, .notJSON, .unknownTopic: true
            default: false
            }
        }
    }
}
