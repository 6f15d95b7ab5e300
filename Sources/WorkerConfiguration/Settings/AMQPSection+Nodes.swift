extension AMQPSection {
    /// The broker nodes of ``urls``, in order, with the password read from ``passwordFile`` when one is set.
    ///
    /// - Throws: ``ConfigurationProblems`` when a URL does not parse or the password file cannot be read.
    public func nodeAddresses() throws(ConfigurationProblems) -> [AMQPNodeAddress] {
        var problems: [ConfigurationProblem] = []
        var password: String?
        if let passwordFile {
            do {
                password = try SecretFile.read(passwordFile)
            } catch {
                problems.append(ConfigurationProblem(path: "amqp.password_file", message: error.message))
            }
        }
        var nodes: [AMQPNodeAddress] = []
        for (index, url) in urls.enumerated() {
            do {
                var node = try AMQPNodeAddress.parse(url)
                if let password { node.password = password }
                nodes.append(node)
            } catch {
                problems.append(ConfigurationProblem(path: KeyPath.index("amqp.urls", index), message: error.message))
            }
        }
        guard problems.isEmpty else { throw ConfigurationProblems(problems) }
        return nodes
    }
}
