import Foundation

/// A one-line progress bar on standard error, redrawn at most ten times a second; only on a terminal
/// (elsewhere the closing summary line is all there is).
final class ProgressBar {
    private var lastDrawn = ContinuousClock.now - .seconds(1)
    private let width = 30

    /// A bar when standard error is a terminal, else `nil`.
    static func onTerminal() -> ProgressBar? {
        isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
    }

    func show(done: Int, of total: Int, detail: String) {
        let now = ContinuousClock.now
        guard now - lastDrawn >= .milliseconds(100) || done == total else { return }
        lastDrawn = now
        let filled = total > 0 ? min(width, done * width / total) : width
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total) \(detail)\u{1B}[K".utf8))
    }

    func clear() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
