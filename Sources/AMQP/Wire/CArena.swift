internal import CRabbitMQ
#if canImport(Glibc)
internal import Glibc
#endif

/// Owns C memory built for one rabbitmq-c call (strings, tables, arrays) and frees it all in `deinit`.
///
/// rabbitmq-c encodes its arguments during the call and keeps no pointer afterwards, so the arena only has
/// to outlive the call: callers wrap it in `withExtendedLifetime`.
final class CArena {
    private var blocks: [UnsafeMutableRawPointer] = []

    /// A copy of `text`'s UTF-8 bytes (NUL-terminated, for the calls that want C strings).
    func bytes(_ text: String) -> amqp_bytes_t {
        let count = text.utf8.count
        let block = allocate(byteCount: count + 1)
        let written = block.withMemoryRebound(to: UInt8.self, capacity: count + 1) { pointer in
            var index = 0
            for byte in text.utf8 {
                pointer[index] = byte
                index += 1
            }
            pointer[index] = 0
            return index
        }
        return amqp_bytes_t(len: written, bytes: block)
    }

    /// A copy of `data`.
    func bytes(_ data: [UInt8]) -> amqp_bytes_t {
        guard !data.isEmpty else { return amqp_bytes_t(len: 0, bytes: nil) }
        let block = allocate(byteCount: data.count)
        data.withUnsafeBytes { block.copyMemory(from: $0.baseAddress!, byteCount: data.count) }
        return amqp_bytes_t(len: data.count, bytes: block)
    }

    /// Uninitialised room for `count` values of `T`, freed with the arena.
    func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        allocate(byteCount: max(count, 1) * MemoryLayout<T>.stride).bindMemory(to: T.self, capacity: max(count, 1))
    }

    private func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        guard let block = malloc(max(byteCount, 1)) else { fatalError("out of memory building an AMQP argument") }
        blocks.append(block)
        return block
    }

    deinit {
        for block in blocks { free(block) }
    }
}
