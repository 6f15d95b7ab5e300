import Foundation
import TestSupport

/// Command-line tools the deployment checks run (`python3` with PyYAML, `yamllint`, `shellcheck`,
/// `kubectl`), found on `PATH` as `scripts/install-deps.sh` installs them, and run by ``ProcessRun``.
enum ExternalTool {
    /// Whether `name` is an executable somewhere on `PATH`.
    static func isAvailable(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    /// Whether `python3` can `import yaml` (Debian's python3-yaml).
    static let hasPythonYAML: Bool = isAvailable("python3") && (try? ProcessRun.blocking("python3", ["-c", "import yaml"]).status) == 0
}
