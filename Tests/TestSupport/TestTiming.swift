import Foundation

/// Short timeouts in tests, stretched when the code runs slower than usual: `make sanitize` sets
/// `APNS_TEST_TIME_SCALE=10`, since ThreadSanitizer makes everything about ten times slower and a
/// 150 ms PING timeout would otherwise fire on a healthy connection.
public enum TestTiming {
    public static let scale: Int = Int(ProcessInfo.processInfo.environment["APNS_TEST_TIME_SCALE"] ?? "") ?? 1

    /// `milliseconds`, stretched by ``scale``.
    public static func milliseconds(_ milliseconds: Int) -> Duration {
        .milliseconds(milliseconds * scale)
    }
}
