/// A 64-bit digest of a delivery's content (its body, job id, attempts and retry copy), made once per
/// job for ``AnsweredOutcomes/Key``: it tells a redelivery of a job from the same job id published
/// again with different content.
///
/// `Hasher`: SipHash-1-3 under a key drawn once per process, a keyed function built so that nobody
/// outside the process can compute two inputs that share a digest. Both uses need that. A key compares
/// bodies only through this digest, so two bodies of one job id that shared it would be one job: a
/// retry copy or replay of the second would be answered with the first's outcome and never pushed.
/// And bodies sharing it would pile into one bucket of the outcomes table, walked under its lock.
/// A multiply-and-xorshift of eight bytes a step, with a random start, cost a third of this (0.9k
/// against 2.9k instructions a job) and was used from 2026-11-30 until a review found bodies that
/// collide under every start (a difference in a word's top bit survives the multiply, and a second
/// word can cancel it): docs/decisions.md.
///
/// Strings go in by their UTF-8 bytes, as the body does: `String`'s own hash is by canonical
/// equivalence, which would give `K` and U+212A (the Kelvin sign) one digest.
struct ContentDigest {
    private var hasher = Hasher()

    /// Mixes in `bytes` and their count (so that where one field ends and the next begins counts).
    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        hasher.combine(bytes: bytes)
        hasher.combine(bytes.count)
    }

    /// Mixes in `text`'s UTF-8 bytes, or a marker for an absent one.
    mutating func combine(_ text: String?) {
        guard var text else { return hasher.combine(-1) }
        text.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    /// Mixes in one number.
    mutating func combine(_ value: Int) {
        hasher.combine(value)
    }

    /// The digest of what was mixed in so far.
    var value: Int {
        hasher.finalize()
    }
}
