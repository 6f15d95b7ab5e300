/// A small, fast, non-cryptographic generator (SplitMix64): the same seed gives the same sequence
/// everywhere. For what only needs to be unique or reproducible, never secret: the mock's
/// `apns-unique-id`s (the system generator makes a `getrandom` system call per draw) and the tests'
/// seeded runs.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next value of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
