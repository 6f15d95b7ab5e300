import NIOConcurrencyHelpers

/// Removes secrets from log text: every line the worker logs passes through here (see
/// ``RedactingLogHandler``), so a secret cannot reach a log by any path — a careless interpolation, a
/// library's error message, an echoed URL.
///
/// What it removes: registered secret values (passwords read from files or URLs), JWTs, `bearer`
/// values, PEM blocks (key material), passwords in URLs; and it truncates device tokens (hex runs of
/// 64 digits or more) to their first eight digits.
public enum Redactor {
    private static let secrets = NIOLockedValueBox<Set<String>>([])

    /// Adds a value that must never appear in a log (shorter than 4 characters is ignored: too common).
    public static func register(_ secret: String) {
        guard secret.count >= 4 else { return }
        secrets.withLockedValue { _ = $0.insert(secret) }
    }

    /// `text` with every secret removed.
    public static func redact(_ text: String) -> String {
        var result = text
        for secret in secrets.withLockedValue({ $0 }) where result.contains(secret) {
            result = result.replacing(secret, with: "<redacted>")
        }
        // Each pattern runs only on text that could hold its match: a Swift regex costs microseconds
        // per pattern and string even when nothing matches, and most lines hold no secret at all.
        if Self.contains("-----BEGIN ", in: result) {
            result = result.replacing(Patterns.keyMaterial, with: "<key material redacted>")
        }
        if Self.contains("eyJ", in: result) {
            result = result.replacing(Patterns.jwt, with: "<jwt redacted>")
        }
        if Self.contains("bearer", in: result, ignoringCase: true) {
            result = result.replacing(Patterns.bearer) { "\($0.output.1) <redacted>" }
        }
        if Self.contains("://", in: result) {
            result = result.replacing(Patterns.urlPassword) { "\($0.output.1):<redacted>@" }
        }
        if Self.hasHexRun(of: 64, in: result) {
            result = result.replacing(Patterns.deviceToken) { "\($0.output.prefix(8))…" }
        }
        return result
    }

    /// Whether `text` holds `needle`'s bytes (ASCII: `ignoringCase` folds only A–Z).
    private static func contains(_ needle: StaticString, in text: String, ignoringCase: Bool = false) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= pattern.count else { return false }
            for start in 0...(bytes.count - pattern.count) {
                var index = 0
                while index < pattern.count, fold(bytes[start + index], ignoringCase) == pattern[index] { index += 1 }
                if index == pattern.count { return true }
            }
            return false
        }
    }

    private static func fold(_ byte: UInt8, _ ignoringCase: Bool) -> UInt8 {
        ignoringCase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// Whether `text` has a run of at least `length` hexadecimal digits.
    private static func hasHexRun(of length: Int, in text: String) -> Bool {
        var run = 0
        for byte in text.utf8 {
            let isHex = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            run = isHex ? run + 1 : 0
            if run >= length { return true }
        }
        return false
    }

    /// The patterns, each built once. A regex literal is a new `Regex` each time it is evaluated, and
    /// each new one parses and compiles its pattern at its first match: written inline, the five were
    /// compiled again for every line and every metadata value logged (`apns-bench redact` measures it).
    /// `nonisolated(unsafe)`: `Regex` is not `Sendable`, but a built regex is never mutated, and it
    /// compiles its program once, stored with an atomic compare-and-swap (swift-experimental-string-
    /// processing, `Regex.Program.loweredProgram`), so threads may share it.
    private enum Patterns {
        nonisolated(unsafe) static let keyMaterial = #/-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(-----END [A-Z0-9 ]+-----|$)/#
        nonisolated(unsafe) static let jwt = #/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/#
        nonisolated(unsafe) static let bearer = #/(?i)(bearer)\s+[^\s"',]+/#
        nonisolated(unsafe) static let urlPassword = #/([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]*):[^@\s/]+@/#
        nonisolated(unsafe) static let deviceToken = #/[0-9a-fA-F]{64,}/#
    }
}
