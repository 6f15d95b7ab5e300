import Testing
@testable import Worker

/// The digest that keys remembered outcomes: equal content gives equal digests, and a change of one
/// byte anywhere, of the length, or of any field gives another.
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
