import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import Worker
import WorkerConfiguration

/// Reloads the credentials on SIGHUP and, with `worker.credential_watch_interval`, when the
/// configuration file or a credential's file changes: the configuration is read again and checked
/// whole (every key and certificate file loaded); with any problem nothing changes. Only `credentials`
/// take effect without a restart: a change anywhere else is reported, and waits for the next start.
struct CredentialReloader: Service {
    let path: String?
    let running: WorkerSettings
    let worker: WorkerService
    let logger: Logger

    func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        // Unbounded: a tick must never take the place of a SIGHUP waiting behind a reload. Ticks come
        // at most once a second, and a reload takes milliseconds, so nothing piles up.
        let (triggers, trigger) = AsyncStream.makeStream(of: ReloadTrigger.self, bufferingPolicy: .unbounded)
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await _ in hangups { trigger.yield(.hangup) }
                }
                if let interval = running.worker.credentialWatchInterval {
                    group.addTask {
                        while (try? await Task.sleep(for: interval)) != nil { trigger.yield(.tick) }
                    }
                }
                await reload(on: triggers)
                group.cancelAll()
            }
        }
    }

    /// One reload. Returns the configuration read (even if its credentials were refused, so their
    /// files are watched from then on), or `nil` when the file itself could not be read.
    func reload() -> WorkerSettings? {
        let settings: WorkerSettings
        do {
            settings = try WorkerSettingsLoader.load(path: path, environment: ProcessInfo.processInfo.environment)
        } catch {
            worker.refuseReload(problems: error.problems)
            return nil
        }
        // Before anything can log them: the new configuration's secrets (a credential's proxy
        // password, say) are redacted from now on.
        WorkerLogging.registerSecrets(of: settings)
        let registry: CredentialRegistry
        do {
            registry = try CredentialRegistry.load(settings)
        } catch {
            worker.refuseReload(problems: error.problems)
            return settings
        }
        var outside = settings
        outside.credentials = running.credentials
        if outside != running {
            logger.warning("the configuration changed outside credentials; those changes take effect at the next start")
        }
        worker.reloadCredentials(registry)
        return settings
    }
}
