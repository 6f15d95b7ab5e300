import JSON
import Testing

@Suite("Bytes checked eight at a time")
struct ByteWordsTests {
    /// The eight bytes of `word`, lowest first (as a little-endian load sees them).
    static func bytes(of word: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
    }

    /// Words whose bytes sit at the edges the tricks must get right, at every position and mixed with
    /// high bytes (UTF-8), plus random ones.
    static let words: [UInt64] = {
        let edges: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
        var words: [UInt64] = []
        for fill in [UInt8(0x61), 0xE2, 0x20] {
            for edge in edges {
                for position in 0..<8 {
                    var word = UInt64(fill) &* ByteWords.lows
                    word &= ~(UInt64(0xFF) << (8 * position))
                    word |= UInt64(edge) << (8 * position)
                    words.append(word)
                }
            }
        }
        var random = SystemRandomNumberGenerator()
        words += (0..<20_000).map { _ in random.next() }
        return words
    }()

    @Test("below(n) is zero exactly when no byte is below n", arguments: [0x01, 0x20, 0x21, 0x7F, 0x80] as [UInt8])
    func below(limit: UInt8) {
        for word in Self.words {
            #expect((ByteWords.below(limit, in: word) == 0) == Self.bytes(of: word).allSatisfy { $0 >= limit }, "\(String(word, radix: 16))")
        }
    }

    @Test("equal(to:) is zero exactly when no byte equals it", arguments: [0x00, 0x22, 0x5C, 0x7F, 0xFF] as [UInt8])
    func equal(value: UInt8) {
        for word in Self.words {
            #expect((ByteWords.equal(to: value, in: word) == 0) == !Self.bytes(of: word).contains(value), "\(String(word, radix: 16))")
        }
    }

    @Test("all(_:) checks whole words and the bytes after the last one, and nothing past the end", arguments: Array(0...19))
    func tails(count: Int) {
        // One refused byte, placed at each position in turn, in buffers of every length up to 19.
        let refused = UInt8(ascii: "!")
        for position in 0..<max(count, 1) {
            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: count + 8)
            if count > 0 { bytes[position] = refused }
            // Past the end: must never be looked at.
            for index in count..<bytes.count { bytes[index] = refused }
            let passes = bytes.withUnsafeBufferPointer { buffer in
                ByteWords.all(UnsafeBufferPointer(rebasing: buffer[0..<count])) { word in
                    ByteWords.equal(to: refused, in: word) == 0
                } byte: { $0 != refused }
            }
            #expect(passes == (count == 0), "length \(count), refused byte at \(position)")
        }
    }
}
