import APNsCore
extension CredentialRegistry {
    /// What a reload changes, by credential name.
    public struct Changes: Sendable, Equatable {
        public var added: [String] = []
        /// Loaded from different settings or files: a new revision, with new connections.
        public var replaced: [String] = []
        public var removed: [String] = []
        public var unchanged: [String] = []

        public var isEmpty: Bool { added.isEmpty && replaced.isEmpty && removed.isEmpty }
    }

    /// This freshly loaded registry made to follow `running`: a credential whose fingerprint did not
    /// change stays exactly the running entry (its token source, its connections); one that changed
    /// gets a revision above every running one, so its connections are new. Also returns the running
    /// entries that are replaced or removed, whose connections are to be retired.
    public func following(_ running: CredentialRegistry) -> (registry: CredentialRegistry, changes: Changes, retired: [Entry]) {
        var changes = Changes()
        var retired: [Entry] = []
        var nextRevision = (running.entries.map(\.credential.revision).max() ?? 0) + 1
        let entries = entries.map { entry -> Entry in
            guard let old = running.entry(named: entry.settings.name) else {
                changes.added.append(entry.settings.name)
                return entry.revised(nextRevision.advance())
            }
            guard old.fingerprint == entry.fingerprint else {
                changes.replaced.append(entry.settings.name)
                retired.append(old)
                return entry.revised(nextRevision.advance())
            }
            changes.unchanged.append(entry.settings.name)
            return old
        }
        for old in running.entries where entry(named: old.settings.name) == nil {
            changes.removed.append(old.settings.name)
            retired.append(old)
        }
        return (CredentialRegistry(entries: entries), changes, retired)
    }
}

extension Int {
    /// The value, then one more.
    fileprivate mutating func advance() -> Int {
        defer { self += 1 }
        return self
    }
}
