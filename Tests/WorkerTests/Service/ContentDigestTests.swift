import Testing
@testable import Worker

/// The digest that keys remembered outcomes: equal content gives equal digests, and a change of one
/// byte anywhere, of the length, or of any field gives another, also when a publisher crafts it.
@Suite("Content digest")
struct ContentDigestTests {
    static func digest(_ body: [UInt8], jobID: String = "job-1", attempts: Int = 0, retryCopy: String? = nil) -> Int {
        var content = ContentDigest()
        body.withUnsafeBytes { content.combine($0) }
        content.combine(jobID)
        content.combine(attempts)
        content.combine(retryCopy)
        return content.value
    }

    /// A body of `count` bytes that are not all alike.
    static func body(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    @Test("the same content gives the same digest")
    func stable() {
        #expect(Self.digest(Self.body(301)) == Self.digest(Self.body(301)))
    }

    @Test("a change of any one byte, in whole words and in the tail, gives another digest")
    func everyByteCounts() {
        let original = Self.body(301)
        let digest = Self.digest(original)
        var seen: Set<Int> = [digest]
        for index in original.indices {
            var changed = original
            changed[index] ^= 0x01
            seen.insert(Self.digest(changed))
        }
        #expect(seen.count == original.count + 1, "every changed body has a digest of its own")
    }

    /// Found by a review of the multiply-and-xorshift digest this replaced: flipping the top bit of a
    /// word and two bits of the next left the state as it was, whatever its random start, so the
    /// bodies below, the second a valid job's, shared a digest in every process (or in half of them).
    @Test("bodies crafted to cancel a difference across two words do not share a digest or a key")
    func craftedDifferences() {
        let original = Array(#"{"aps":{"alert":"hello aaaaaaaaaaaaaaaaaaaaaaaaaaa"}}"#.utf8)
        var topBits = original
        topBits[7] ^= 0x80
        topBits[12] ^= 0x04
        topBits[15] ^= 0x80
        let printable = Array(#"{"aps":{"alert":"hello aaaaaaaa!aaaacaa!aaaaaaaaaa"}}"#.utf8)
        for changed in [topBits, printable] {
            #expect(Self.digest(original) != Self.digest(changed))
            #expect(AnsweredOutcomes.Key(jobID: "j", previousAttempts: 0, body: original) != AnsweredOutcomes.Key(jobID: "j", previousAttempts: 0, body: changed))
        }
    }

    @Test("job ids that differ only by canonical equivalence are different jobs")
    func idsByBytes() {
        let body = Self.body(64)
        #expect(Self.digest(body, jobID: "K") != Self.digest(body, jobID: "\u{212A}"))
        #expect(AnsweredOutcomes.Key(jobID: "K", previousAttempts: 0, body: body) != AnsweredOutcomes.Key(jobID: "\u{212A}", previousAttempts: 0, body: body))
    }

    @Test("a body and the same body with zero bytes after it differ; so do the empty body and none")
    func lengthCounts() {
        let body = Self.body(13)
        #expect(Self.digest(body) != Self.digest(body + [0]))
        #expect(Self.digest(body) != Self.digest(body + [0, 0, 0]))
        #expect(Self.digest([]) != Self.digest([0]))
    }

    @Test("the job id, the attempts and the retry copy each count, and an absent copy is not an empty one")
    func fieldsCount() {
        let body = Self.body(64)
        let digest = Self.digest(body)
        #expect(digest != Self.digest(body, jobID: "job-2"))
        #expect(digest != Self.digest(body, attempts: 1))
        #expect(digest != Self.digest(body, retryCopy: "copy-1"))
        #expect(Self.digest(body, retryCopy: nil) != Self.digest(body, retryCopy: ""))
    }
}
