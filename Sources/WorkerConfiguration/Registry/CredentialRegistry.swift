public import APNsCore
public import Foundation

/// The credentials, loaded (keys read and checked, certificates opened), and the topic → credential map.
public struct CredentialRegistry: Sendable {
    /// One loaded credential and where its connections go.
    ///
    /// A class, immutable: every job looks its credential up, and a copy of a struct holding the
    /// settings (a dozen strings and arrays) was a dozen reference-count operations and copies per job.
    public final class Entry: Sendable {
        /// What the APNs client sends with: named like the settings, keys loaded.
        public let credential: APNsCredential
        /// `apns.endpoint` when set, else Apple's host for ``environment``.
        public let endpoint: APNsEndpoint
        /// The APNs service the credential's device tokens belong to.
        public let environment: APNsEnvironment
        /// Connections for this credential: its own `connections`, else `apns.connections`.
        public let connections: Int
        /// The settings it was loaded from.
        public let settings: CredentialSettings
        /// A certificate credential's expiry (its certificate's `notAfter`); nil for token credentials,
        /// whose keys do not expire (a revoked key shows as `InvalidProviderToken`).
        public let certificateNotAfter: Date?
        /// A digest of everything the credential was loaded from: its settings, the endpoint, and the
        /// bytes of its key, certificate and password files. Equal fingerprints: the same credential.
        public let fingerprint: [UInt8]

        init(
            credential: APNsCredential, endpoint: APNsEndpoint, environment: APNsEnvironment, connections: Int, settings: CredentialSettings,
            certificateNotAfter: Date?, fingerprint: [UInt8]
        ) {
            self.credential = credential
            self.endpoint = endpoint
            self.environment = environment
            self.connections = connections
            self.settings = settings
            self.certificateNotAfter = certificateNotAfter
            self.fingerprint = fingerprint
        }

        /// This entry with its credential as `revision`.
        func revised(_ revision: Int) -> Entry {
            Entry(
                credential: credential.revised(revision), endpoint: endpoint, environment: environment, connections: connections,
                settings: settings, certificateNotAfter: certificateNotAfter, fingerprint: fingerprint
            )
        }
    }

    /// In the order of the file.
    public let entries: [Entry]
    private let byName: [String: Int]
    private let byTopic: [String: Int]

    /// Builds the maps; the entries' names and topics must already be known to be unique.
    init(entries: [Entry]) {
        self.entries = entries
        byName = Dictionary(entries.enumerated().map { ($1.settings.name, $0) }, uniquingKeysWith: { first, _ in first })
        byTopic = Dictionary(
            entries.enumerated().flatMap { index, entry in entry.settings.topics.map { ($0, index) } },
            uniquingKeysWith: { first, _ in first }
        )
    }

    /// The credential a job names explicitly.
    public func entry(named name: String) -> Entry? {
        byName[name].map { entries[$0] }
    }

    /// The credential for an `apns-topic`: the exact topic first, then the topic's bundle id (the topic
    /// minus a known push type's suffix, so `com.acme.app.voip` finds `com.acme.app`).
    public func entry(forTopic topic: String) -> Entry? {
        if let index = byTopic[topic] { return entries[index] }
        for suffix in PushType.known.compactMap(\.topicSuffix) where topic.hasSuffix(suffix) && topic.count > suffix.count {
            if let index = byTopic[String(topic.dropLast(suffix.count))] { return entries[index] }
        }
        return nil
    }
}
