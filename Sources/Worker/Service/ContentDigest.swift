/// A 64-bit digest of a delivery's content (its body, job id, attempts and retry copy), made once per
/// job for ``AnsweredOutcomes/Key``: it tells a redelivery of a job from the same job id published
/// again with different content.
///
/// `Hasher` (SipHash-1-3) over a 300-byte job cost about 2,900 instructions, 2 % of a job's whole
/// cost under callgrind (`scripts/bench-instructions.sh`); this mixes eight bytes per step. Each step
/// is a bijection of the running state, so two inputs that differ only in their last word never
/// collide. The state starts from a value drawn once per process, as `Hasher`'s seed is: with a
/// fixed start, a publisher could compute bodies that share one digest and pile them into one bucket
/// of the outcomes table, whose every insert and lookup would then walk them all under its lock.
struct ContentDigest {
    private static let seed = UInt64.random(in: .min ... .max)
    private var state = Self.seed

    /// Mixes in `bytes` and their count (so that a body and its prefix padded with zeros differ).
    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 8 <= bytes.count {
            mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        for index in offset..<bytes.count {
            tail |= UInt64(bytes[index]) << (8 * UInt64(index - offset))
        }
        mix(tail)
        mix(UInt64(bytes.count))
    }

    /// Mixes in `text`'s UTF-8 bytes, or a marker for an absent one.
    mutating func combine(_ text: String?) {
        guard var text else { return mix(0xA5A5_A5A5_A5A5_A5A5) }
        text.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    /// Mixes in one number.
    mutating func combine(_ value: Int) {
        mix(UInt64(bitPattern: Int64(value)))
    }

    /// The digest: the state through a final avalanche (MurmurHash3's), so that every input bit moves
    /// every output bit and the table's buckets spread.
    var value: Int {
        var mixed = state
        mixed = (mixed ^ (mixed >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        mixed = (mixed ^ (mixed >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 33))
    }

    private mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* 0x9FB2_1C65_1E98_DF25
        state ^= state >> 29
    }
}
