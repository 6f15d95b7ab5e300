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
        guard result.contains(where: { $0 == "." || $0 == "-" || $0 == ":" || $0.isHexDigit }) else { return result }
        result = result.replacing(#/-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(-----END [A-Z0-9 ]+-----|$)/#, with: "<key material redacted>")
        result = result.replacing(#/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/#, with: "<jwt redacted>")
        result = result.replacing(#/(?i)(bearer)\s+[^\s"',]+/#) { "\($0.output.1) <redacted>" }
        result = result.replacing(#/([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]*):[^@\s/]+@/#) { "\($0.output.1):<redacted>@" }
        result = result.replacing(#/[0-9a-fA-F]{64,}/#) { "\($0.output.prefix(8))…" }
        return result
    }
}
