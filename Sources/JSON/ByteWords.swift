/// Checks every byte of a buffer eight at a time, for the scans every job's strings pass through
/// (escaping a result's strings, looking for control characters in a job's fields): a byte-by-byte
/// loop over them cost thousands of instructions a job (callgrind, docs/decisions.md).
///
/// The word tests rely on two exact yes-or-no tricks ("Bit Twiddling Hacks"): a word has a byte
/// below `n` (for `n` ≤ 0x80) when `(x - n…) & ~x & 0x80…` is non-zero, and a byte equal to `b` when
/// `x ^ b…` has a zero byte.
public enum ByteWords {
    /// `0x01` in every byte: `lows &* b` is `b` in every byte.
    public static let lows: UInt64 = 0x0101_0101_0101_0101
    /// `0x80` in every byte.
    public static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether every byte of `bytes` passes: `word` decides eight of them at once (true: all pass),
    /// `byte` the last few.
    @inlinable
    public static func all(
        _ bytes: UnsafeBufferPointer<UInt8>, word: (UInt64) -> Bool, byte: (UInt8) -> Bool
    ) -> Bool {
        let passed = passingWords(bytes, word: word)
        // Eight or more left: a word failed.
        return bytes.count - passed < 8 && bytes[passed...].allSatisfy(byte)
    }

    /// How many leading bytes of `bytes` pass `word`, in whole words of eight: a multiple of eight,
    /// ending at the first word that fails or where fewer than eight bytes are left.
    @inlinable
    public static func passingWords(_ bytes: UnsafeBufferPointer<UInt8>, word: (UInt64) -> Bool) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset + 8 <= bytes.count, word(UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)) {
            offset += 8
        }
        return offset
    }

    /// The high bit of each byte of `word` that is below `limit` (≤ 0x80), and possibly of bytes above
    /// such a byte: zero exactly when no byte is below `limit`.
    @inlinable
    public static func below(_ limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- UInt64(limit) &* lows) & ~word & highs
    }

    /// Zero exactly when no byte of `word` equals `value`.
    @inlinable
    public static func equal(to value: UInt8, in word: UInt64) -> UInt64 {
        let difference = word ^ (UInt64(value) &* lows)
        return (difference &- lows) & ~difference & highs
    }
}
