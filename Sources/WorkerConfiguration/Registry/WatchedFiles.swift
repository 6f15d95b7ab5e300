import Foundation
import TLS

/// The files a worker's credentials come from — the configuration file and every key, certificate and
/// password file it names — and a digest of their bytes: what `worker.credential_watch_interval`
/// compares to notice a rotated key or a renewed certificate without a SIGHUP.
public struct WatchedFiles: Sendable, Equatable {
    public let paths: [String]

    /// The files of `settings`, read from the configuration file at `configuration` (none for the
    /// built-in defaults).
    public init(configuration: String?, settings: WorkerSettings) {
        paths = (configuration.map { [$0] } ?? []) + settings.credentials.flatMap { CredentialFingerprint.files(of: $0.kind) }
    }

    /// SHA-256 over each path and the bytes behind it. A file that cannot be read counts as empty, so
    /// its disappearing and its coming back are changes too. Paths are read through symbolic links,
    /// so a Kubernetes Secret volume's swap of its `..data` link is seen.
    public func digest() -> [UInt8] {
        SHA256.hash(Self.material(of: paths))
    }

    /// Each path, then the bytes behind it (none when it cannot be read), each ended by a NUL.
    static func material(of paths: [String]) -> [UInt8] {
        var material: [UInt8] = []
        for path in paths {
            material += Array(path.utf8) + [0]
            material += (try? Data(contentsOf: URL(fileURLWithPath: path))).map(Array.init) ?? []
            material += [0]
        }
        return material
    }
}
