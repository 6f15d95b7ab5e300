import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import Worker
import WorkerConfiguration

/// Reloads the credentials on SIGHUP: the configuration is read again and checked whole (every key and
/// certificate file loaded); with any problem nothing changes. Only `credentials` take effect without
/// a restart: a change anywhere else is reported, and waits for the next start.
struct CredentialReloader: Service {
    let path: String?
    let running: WorkerSettings
    let worker: WorkerService
    let logger: Logger

    func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        await cancelWhenGracefulShutdown {
            for await _ in hangups { reload() }
        }
    }

    /// One reload, as SIGHUP asks.
    func reload() {
        logger.notice("SIGHUP: reloading the credentials", metadata: ["config": "\(path ?? "(built-in defaults)")"])
        let settings: WorkerSettings
        let registry: CredentialRegistry
        do {
            settings = try WorkerSettingsLoader.load(path: path, environment: ProcessInfo.processInfo.environment)
            // Before anything can log them: the new configuration's secrets (a credential's proxy
            // password, say) are redacted from now on.
            WorkerLogging.registerSecrets(of: settings)
            registry = try CredentialRegistry.load(settings)
        } catch {
            worker.refuseReload(problems: error.problems)
            return
        }
        var outside = settings
        outside.credentials = running.credentials
        if outside != running {
            logger.warning("the configuration changed outside credentials; those changes take effect at the next start")
        }
        worker.reloadCredentials(registry)
    }
}
