internal import CRabbitMQ
#if canImport(Glibc)
internal import Glibc
#endif

/// The C memory a method's or a content header's arguments are built in before rabbitmq-c encodes them
/// (strings, tables, arrays): a bump allocator whose first block is kept from one encoding to the
/// next, so a publish allocates nothing in the usual case.
///
/// rabbitmq-c copies what it encodes into the output buffer and keeps no pointer, so everything here
/// is released by ``reset()`` once the frame is written. Not `Sendable`: one per connection, used on
/// its event loop.
final class EncodingArena {
    private static let blockSize = 4096
    /// The first block (kept for every encoding), the block allocations come from now, and how much
    /// of that block is used. Plain pointers and integers, and no access to them spans a call, so the
    /// optimizer drops Swift's run-time exclusivity checks on them: an array of blocks, which `append`
    /// grows through a call, was checked on every allocation: eight a publish, 650 instructions
    /// (callgrind).
    private var first: (start: UnsafeMutableRawPointer, size: Int)?
    private var current: (start: UnsafeMutableRawPointer, size: Int)?
    private var used = 0
    /// Blocks beyond the first (a frame larger than one block), freed by ``reset()``.
    private var larger: [UnsafeMutableRawPointer] = []
    /// `!larger.isEmpty`, kept apart so that ``reset()``, after every encoding, reads a plain flag:
    /// `larger` keeps its run-time checks (its `append` spans a call), and asking it would cost one.
    private var hasLarger = false

    deinit {
        reset()
        if let first { free(first.start) }
    }

    /// A copy of `text`'s UTF-8 bytes.
    func bytes(_ text: String) -> amqp_bytes_t {
        var text = text
        return text.withUTF8 { bytes(UnsafeRawBufferPointer($0)) }
    }

    /// A copy of `raw`.
    func bytes(_ raw: UnsafeRawBufferPointer) -> amqp_bytes_t {
        guard !raw.isEmpty else { return amqp_bytes_t(len: 0, bytes: nil) }
        let block = allocate(byteCount: raw.count, alignment: 1)
        block.copyMemory(from: raw.baseAddress!, byteCount: raw.count)
        return amqp_bytes_t(len: raw.count, bytes: block)
    }

    /// A copy of `data`.
    func bytes(_ data: [UInt8]) -> amqp_bytes_t {
        data.withUnsafeBytes { bytes($0) }
    }

    /// Uninitialised room for `count` values of `T`.
    func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        allocate(byteCount: max(count, 1) * MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment).bindMemory(to: T.self, capacity: max(count, 1))
    }

    /// Forgets everything allocated; the first block stays for the next encoding, larger ones go.
    func reset() {
        if hasLarger {
            let blocks = larger
            larger = []
            hasLarger = false
            for block in blocks { free(block) }
        }
        current = first
        used = 0
    }

    private func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
        if let current {
            let offset = (used + alignment - 1) & ~(alignment - 1)
            if offset + byteCount <= current.size {
                used = offset + byteCount
                return current.start + offset
            }
        }
        let size = max(Self.blockSize, byteCount)
        guard let start = malloc(size) else { fatalError("out of memory encoding an AMQP frame") }
        if first == nil {
            first = (start, size)
        } else {
            larger.append(start)
            hasLarger = true
        }
        current = (start, size)
        used = byteCount
        return start
    }
}
