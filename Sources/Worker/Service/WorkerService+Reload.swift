import APNsCore
import Logging
import APNsClient
import NIOConcurrencyHelpers
public import WorkerConfiguration

/// Credentials replaced while the worker runs (SIGHUP): jobs keep flowing throughout.
extension WorkerService {
    /// Makes `loaded` — every credential of the configuration, just loaded and checked — the
    /// credentials in force. Unchanged credentials keep their connections and provider tokens (no
    /// token update APNs could count against them). Jobs resolved from now on use the new keys and
    /// certificates on new connections; the replaced and removed ones finish their streams on their
    /// old connections, which then close. A replaced credential's pause (APNs refused the old key)
    /// is lifted.
    @discardableResult
    public func reloadCredentials(_ loaded: CredentialRegistry) -> CredentialRegistry.Changes {
        let (registry, changes, retired) = shared.credentialsInForce.withLockedValue { running in
            let next = loaded.following(running)
            running = next.registry
            return next
        }
        for name in changes.replaced { gate.resume(name) }
        shared.rateLimits.update(credentials: registry.entries.map(\.settings))
        recordCredentials(registry.entries.filter { !changes.unchanged.contains($0.settings.name) })
        for entry in retired {
            for shard in shards {
                Task { [apns = shard.apns] in await apns.retire(credential: entry.settings.name, revision: entry.credential.revision) }
            }
        }
        metrics.credentialReload(applied: true)
        logger.notice("credentials reloaded", metadata: [
            "added": "\(changes.added.joined(separator: ","))", "replaced": "\(changes.replaced.joined(separator: ","))",
            "removed": "\(changes.removed.joined(separator: ","))", "unchanged": "\(changes.unchanged.count)",
        ])
        return changes
    }

    /// A reload whose configuration has problems: nothing changes; each problem is logged with its key
    /// path, and `apns_credential_reload_successful` drops to 0 until a reload succeeds.
    public func refuseReload(problems: [ConfigurationProblem]) {
        metrics.credentialReload(applied: false)
        logger.error("configuration reload refused; the credentials in force stay", metadata: ["problems": "\(problems.count)"])
        for problem in problems { logger.error("reload problem", metadata: ["problem": "\(problem)"]) }
    }

    /// The credentials in force now.
    public var credentialsInForce: CredentialRegistry { shared.credentials }
}
