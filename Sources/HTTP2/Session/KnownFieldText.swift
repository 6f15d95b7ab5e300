/// The header names (and the one value) that nearly every APNs request or answer carries, as string
/// literals: a received field whose bytes are one of these becomes that literal instead of a `String`
/// decoded, and checked as UTF-8, from nghttp2's buffer.
///
/// Every answer carries `:status: 200` and `apns-id`, and decoding each name and value was about 250
/// instructions a field (callgrind, `apns-bench client-only`): a third of what the client spent
/// reading an answer. A literal is immortal, so it is neither allocated nor reference-counted.
enum KnownFieldText {
    /// The literal for a field name, or nil when `bytes` is not one of the common ones. Chosen by
    /// length first, so a field is compared with at most three names.
    static func name(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch bytes.count {
        case 5: match(bytes, ":path", ":path")
        case 7: match(bytes, ":status", ":status") ?? match(bytes, "apns-id", "apns-id") ?? match(bytes, ":method", ":method")
            ?? match(bytes, ":scheme", ":scheme")
        case 10: match(bytes, ":authority", ":authority") ?? match(bytes, "apns-topic", "apns-topic")
        case 11: match(bytes, "retry-after", "retry-after")
        case 12: match(bytes, "content-type", "content-type")
        case 13: match(bytes, "authorization", "authorization") ?? match(bytes, "apns-priority", "apns-priority")
        case 14: match(bytes, "apns-unique-id", "apns-unique-id") ?? match(bytes, "apns-push-type", "apns-push-type")
            ?? match(bytes, "content-length", "content-length")
        case 15: match(bytes, "apns-request-id", "apns-request-id") ?? match(bytes, "apns-channel-id", "apns-channel-id")
            ?? match(bytes, "apns-expiration", "apns-expiration")
        case 16: match(bytes, "apns-collapse-id", "apns-collapse-id")
        default: nil
        }
    }

    /// The literal for a value, or nil: only the status of a successful push is common enough.
    static func value(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        equal("200", bytes) ? "200" : nil
    }

    /// `text` (the same name as a `String` literal: a `StaticString` made a `String` would be copied)
    /// when `bytes` are `literal`'s.
    @inline(__always)
    private static func match(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString, _ text: String) -> String? {
        equal(literal, bytes) ? text : nil
    }

    private static func equal(_ literal: StaticString, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard literal.utf8CodeUnitCount == bytes.count else { return false }
        let expected = literal.utf8Start
        for index in 0..<bytes.count where expected[index] != bytes[index] { return false }
        return true
    }
}
