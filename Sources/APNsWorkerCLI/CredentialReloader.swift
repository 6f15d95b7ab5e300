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

    /// Why a reload runs.
    private enum Trigger { case hangup, tick }

    func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        // One reload at a time, in one loop; a burst of triggers while one runs makes one more.
        let (triggers, trigger) = AsyncStream.makeStream(of: Trigger.self, bufferingPolicy: .bufferingNewest(1))
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

    /// Reloads for every SIGHUP, and for every tick that finds the watched files changed.
    private func reload(on triggers: AsyncStream<Trigger>) async {
        var watched = WatchedFiles(configuration: path, settings: running)
        var seen = watched.digest()
        for await trigger in triggers {
            let now = watched.digest()
            switch trigger {
            case .hangup:
                logger.notice("SIGHUP: reloading the credentials", metadata: ["config": "\(path ?? "(built-in defaults)")"])
            case .tick:
                guard now != seen else { continue }
                logger.notice("a watched file changed: reloading the credentials", metadata: ["config": "\(path ?? "(built-in defaults)")"])
            }
            seen = now
            guard let read = reload() else { continue }
            let next = WatchedFiles(configuration: path, settings: read)
            // New files to watch: their bytes as they are now are the baseline.
            if next != watched {
                watched = next
                seen = next.digest()
            }
        }
    }

    /// One reload. Returns the configuration read (even if its credentials were refused, so their
    /// files are watched from then on), or `nil` when the file itself could not be read.
    private func reload() -> WorkerSettings? {
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
