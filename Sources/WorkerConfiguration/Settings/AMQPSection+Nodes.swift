public import AMQPConfiguration

extension AMQPSection {
    /// The AMQP client options this section describes: every URL parsed (one parser, the client's own),
    /// the password file passed on (the client re-reads it at each connection attempt, so a rotated
    /// secret is picked up), heartbeat, timeouts and TLS.
    ///
    /// - Throws: ``ConfigurationProblems`` naming each URL that does not parse and an unreadable password file.
    public func clientOptions() throws(ConfigurationProblems) -> AMQPClientOptions {
        var problems: [ConfigurationProblem] = []
        if let passwordFile {
            do {
                _ = try SecretFile.read(passwordFile)
            } catch {
                problems.append(ConfigurationProblem(path: "amqp.password_file", message: error.message))
            }
        }
        var endpoints: [AMQPEndpoint] = []
        for (index, url) in urls.enumerated() {
            do {
                endpoints.append(try AMQPEndpoint(url: url))
            } catch {
                problems.append(ConfigurationProblem(path: KeyPath.index("amqp.urls", index), message: error.message))
            }
        }
        // The worker declares and consumes one topology: nodes of one cluster, one vhost.
        if let first = endpoints.first {
            for (index, endpoint) in endpoints.enumerated() where endpoint.virtualHost != first.virtualHost {
                problems.append(ConfigurationProblem(
                    path: KeyPath.index("amqp.urls", index),
                    message: "names vhost \"\(endpoint.virtualHost)\" but amqp.urls[0] names \"\(first.virtualHost)\": every URL must name the vhost the worker's topology lives in"
                ))
            }
        }
        guard problems.isEmpty else { throw ConfigurationProblems(problems) }
        var options = AMQPClientOptions(endpoints: endpoints)
        options.passwordFile = passwordFile
        options.heartbeatSeconds = Int(heartbeat.components.seconds)
        options.connectTimeout = connectTimeout
        options.connectionName = connectionName
        options.tls = AMQPTLSOptions(
            caFile: tls.caFile, certificateFile: tls.certificateFile, keyFile: tls.keyFile,
            verifyPeer: tls.verifyPeer, verifyHostname: tls.verifyHostname
        )
        return options
    }
}
