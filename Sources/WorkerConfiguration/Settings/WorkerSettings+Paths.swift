extension WorkerSettings {
    /// These settings with every relative file path made absolute against `directory`.
    ///
    /// Relative paths are otherwise relative to the working directory; resolving them once at start makes
    /// logs unambiguous and lets callers (tests) load a file written relative to another directory.
    public func resolvingRelativePaths(against directory: String) -> WorkerSettings {
        let resolve = { (path: String) -> String in
            path.hasPrefix("/") || path.isEmpty ? path : (directory.hasSuffix("/") ? directory : directory + "/") + path
        }
        var settings = self
        settings.amqp.passwordFile = amqp.passwordFile.map(resolve)
        settings.amqp.tls.caFile = amqp.tls.caFile.map(resolve)
        settings.amqp.tls.certificateFile = amqp.tls.certificateFile.map(resolve)
        settings.amqp.tls.keyFile = amqp.tls.keyFile.map(resolve)
        settings.apns.caFile = apns.caFile.map(resolve)
        for index in settings.credentials.indices {
            settings.credentials[index].kind = switch credentials[index].kind {
            case let .token(teamID, keyID, keyFile, allowInsecure, refreshAge):
                .token(teamID: teamID, keyID: keyID, keyFile: resolve(keyFile), allowInsecureKeyPermissions: allowInsecure, refreshAge: refreshAge)
            case let .pkcs12(file, passwordFile):
                .pkcs12(file: resolve(file), passwordFile: passwordFile.map(resolve))
            case let .pem(certificateFile, keyFile):
                .pem(certificateFile: resolve(certificateFile), keyFile: resolve(keyFile))
            }
        }
        return settings
    }
}
