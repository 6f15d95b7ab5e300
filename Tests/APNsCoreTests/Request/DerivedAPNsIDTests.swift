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
}
