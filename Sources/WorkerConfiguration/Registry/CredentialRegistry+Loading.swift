public import APNsCore

extension CredentialRegistry {
    /// Loads every credential of `settings`.
    ///
    /// - Throws: ``ConfigurationProblems`` naming every credential that cannot be used (missing,
    ///   unreadable, insecure or malformed key file; bad ids; a PKCS#12 that will not open), duplicate
    ///   names, and topics claimed by two credentials.
    public static func load(_ settings: WorkerSettings, clock: any WallClock = SystemWallClock()) throws(ConfigurationProblems) -> CredentialRegistry {
        var problems = CredentialCrossCheck.problems(settings.credentials)
        var entries: [Entry] = []
        for (index, credentialSettings) in settings.credentials.enumerated() {
            let path = KeyPath.index("credentials", index)
            do {
                let loaded = try CredentialLoader.authentication(for: credentialSettings.kind, path: path, clock: clock)
                entries.append(Entry(
                    credential: APNsCredential(
                        name: credentialSettings.name, authentication: loaded.authentication,
                        connections: credentialSettings.connections ?? settings.apns.connections, proxy: credentialSettings.proxy
                    ),
                    endpoint: settings.apns.endpoint ?? APNsEndpoint(environment: credentialSettings.environment),
                    environment: credentialSettings.environment,
                    connections: credentialSettings.connections ?? settings.apns.connections,
                    settings: credentialSettings,
                    certificateNotAfter: loaded.certificateNotAfter,
                    fingerprint: CredentialFingerprint.of(credentialSettings, endpoint: settings.apns.endpoint, connections: settings.apns.connections)
                ))
            } catch {
                problems.append(contentsOf: error.problems)
            }
        }
        guard problems.isEmpty else { throw ConfigurationProblems(problems) }
        return CredentialRegistry(entries: entries)
    }
}
