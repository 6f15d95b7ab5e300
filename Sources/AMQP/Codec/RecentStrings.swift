internal import CRabbitMQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings that arrive again and again on one connection — every delivery's exchange, routing key,
/// consumer tag and content type — decoded once and then shared.
///
/// Otherwise each delivery held in memory (up to the prefetch: thousands) owns a heap copy of each,
/// and every frame decoded allocates them anew. A few recent values are kept; one that is not among
/// them is decoded as usual and replaces the oldest. Confined to its connection's thread.
struct RecentStrings {
    static let capacity = 16
    private var strings: [String] = []
    private var oldest = 0

    /// The string of `bytes` (UTF-8, repaired like `String(decoding:as:)`), shared with an earlier one.
    mutating func string(_ bytes: amqp_bytes_t) -> String {
        string(UnsafeRawBufferPointer(start: bytes.bytes, count: bytes.bytes == nil ? 0 : bytes.len))
    }

    mutating func string(_ raw: UnsafeRawBufferPointer) -> String {
        // Up to 15 UTF-8 bytes a string is stored inline and never allocates: nothing to share.
        guard raw.count > 15, let pointer = raw.baseAddress else { return String(decoding: raw, as: UTF8.self) }
        for var string in strings where string.utf8.count == raw.count {
            if string.withUTF8({ memcmp($0.baseAddress!, pointer, raw.count) == 0 }) { return string }
        }
        let string = String(decoding: raw, as: UTF8.self)
        if strings.count < Self.capacity {
            strings.append(string)
        } else {
            strings[oldest] = string
            oldest = (oldest + 1) % Self.capacity
        }
        return string
    }
}
