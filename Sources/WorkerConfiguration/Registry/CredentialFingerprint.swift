import APNsCore
import TLS

/// What tells a reloaded credential from the one already running: a SHA-256 over its settings and
/// the bytes of the files it was loaded from, so a key or certificate replaced under the same path
/// counts as a change, and an untouched credential keeps its connections.
enum CredentialFingerprint {
    static func of(_ settings: CredentialSettings, endpoint: APNsEndpoint?, connections: Int) -> [UInt8] {
        // An unreadable file cannot get here: loading it already failed. The path's bytes keep the
        // digest honest either way.
        let material = Array("\(settings)|\(endpoint.map { "\($0)" } ?? "-")|\(connections)".utf8) + WatchedFiles.material(of: files(of: settings.kind))
        return SHA256.hash(material)
    }

    static func files(of kind: CredentialKind) -> [String] {
        switch kind {
        case .token(_, _, let keyFile, _, _): [keyFile]
        case .pkcs12(let file, let passwordFile): [file] + (passwordFile.map { [$0] } ?? [])
        case .pem(let certificateFile, let keyFile): [certificateFile, keyFile]
        }
    }
}
