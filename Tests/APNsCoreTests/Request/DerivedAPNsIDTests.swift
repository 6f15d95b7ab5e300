import APNsCore
import Testing

@Suite("apns-ids derived from jobs")
struct DerivedAPNsIDTests {
    @Test("a job's id always derives the same canonical version-8 apns-id, and another job's a different one")
    func fromJobID() throws {
        let id = APNsID.derived(fromJobID: "job-1")
        #expect(id == APNsID.derived(fromJobID: "job-1"))
        #expect(id != APNsID.derived(fromJobID: "job-2"))
        #expect(try APNsID(id.value) == id, "canonical: it parses back")
        #expect(Array(id.value.utf8)[14] == UInt8(ascii: "8"), "version 8")
    }

    @Test("each token of a multicast job has its own, stable across deliveries and apart from the job's")
    func fromJobIDAndToken() throws {
        let first = try DeviceToken(hex: String(repeating: "ab", count: 32))
        let second = try DeviceToken(hex: String(repeating: "cd", count: 32))
        let id = APNsID.derived(fromJobID: "job-1", token: first)
        #expect(id == APNsID.derived(fromJobID: "job-1", token: first))
        #expect(id != APNsID.derived(fromJobID: "job-1", token: second))
        #expect(id != APNsID.derived(fromJobID: "job-2", token: first))
        #expect(id != APNsID.derived(fromJobID: "job-1"))
    }

    @Test("the ids are the same from release to release: a redelivery to a newer worker carries its first try's id")
    func pinned() throws {
        // Computed apart from this code: SHA-256 of the name (Python's hashlib), its first 16 bytes
        // with the version (8) and variant bits stamped.
        #expect(APNsID.derived(fromJobID: "job-1").value == "98147e41-c114-8130-a890-62f63312b5f9")
        let token = try DeviceToken(hex: String(repeating: "0f", count: 32))
        #expect(APNsID.derived(fromJobID: "job-1", token: token).value == "bb853360-13e8-8a3c-a254-be07965e6823")
    }
}
