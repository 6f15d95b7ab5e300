/// Rules that span credentials: at least one, unique names, each topic claimed once.
///
/// Run by the loader and again by ``CredentialRegistry``, which may be given settings built in code.
enum CredentialCrossCheck {
    static func problems(_ credentials: [CredentialSettings]) -> [ConfigurationProblem] {
        guard !credentials.isEmpty else {
            return [ConfigurationProblem(path: "credentials", message: "must list at least one credential")]
        }
        var problems: [ConfigurationProblem] = []
        var names: [String: Int] = [:]
        var topics: [String: Int] = [:]
        for (index, credential) in credentials.enumerated() {
            let path = KeyPath.index("credentials", index)
            // An empty name is a missing one, already reported by the decoder.
            if !credential.name.isEmpty {
                if let first = names[credential.name] {
                    problems.append(ConfigurationProblem(
                        path: KeyPath.child(path, "name"),
                        message: "\"\(credential.name)\" is already the name of credentials[\(first)]; names must be unique"
                    ))
                } else {
                    names[credential.name] = index
                }
            }
            for (topicIndex, topic) in credential.topics.enumerated() {
                if let first = topics[topic], first != index {
                    problems.append(ConfigurationProblem(
                        path: KeyPath.index(KeyPath.child(path, "topics"), topicIndex),
                        message: "topic \(topic) is already claimed by credentials[\(first)] (\"\(credentials[first].name)\"); a topic maps to one credential"
                    ))
                } else {
                    topics[topic] = index
                }
            }
        }
        return problems
    }
}
