import Logging
import Worker
import WorkerConfiguration

/// Why a reload runs.
enum ReloadTrigger: Sendable { case hangup, tick }

/// When to reload: at once for SIGHUP; for the watch, once the watched files changed and then held
/// still for a whole interval, so a file caught half written (a YAML file cut short can still parse,
/// and drop credentials) is not taken.
extension CredentialReloader {
    func reload(on triggers: AsyncStream<ReloadTrigger>) async {
        var watched = WatchedFiles(configuration: path, settings: running)
        var seen = watched.digest()
        // A changed digest seen at the last tick, not yet taken.
        var settling: [UInt8]?
        for await trigger in triggers {
            let now = watched.digest()
            switch trigger {
            case .hangup:
                logger.notice("SIGHUP: reloading the credentials", metadata: ["config": "\(path ?? "(built-in defaults)")"])
            case .tick:
                guard now != seen else {
                    settling = nil
                    continue
                }
                guard now == settling else {
                    settling = now
                    continue
                }
                logger.notice("a watched file changed: reloading the credentials", metadata: ["config": "\(path ?? "(built-in defaults)")"])
            }
            seen = now
            settling = nil
            let read = reload()
            // The reload ran the YAML reader and the credentials' loading again, 6 MiB of code a
            // worker that keeps it mapped would hold until the next reload.
            StartupCode.release(after: "reload", logger: logger)
            guard let read else { continue }
            let next = WatchedFiles(configuration: path, settings: read)
            // New files to watch: their bytes as they are now are the baseline.
            if next != watched {
                watched = next
                seen = next.digest()
            }
        }
    }
}
