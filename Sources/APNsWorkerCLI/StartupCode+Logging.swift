import Logging
import Worker

extension StartupCode {
    /// Unmaps the code pages `what` left mapped (start-up, a reload of the configuration), which the
    /// consuming worker does not run again, and logs how much was resident (``StartupCode`` says why).
    static func release(after what: String, logger: Logger) {
        guard let released = release() else { return }
        logger.info("code pages released", metadata: [
            "after": "\(what)", "mappings": "\(released.mappings)", "resident_kib": "\(released.residentBytes / 1024)",
        ])
    }
}
