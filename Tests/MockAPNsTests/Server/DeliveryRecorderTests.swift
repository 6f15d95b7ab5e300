import Testing
@testable import MockAPNs

@Suite("Delivery recorder")
struct DeliveryRecorderTests {
    @Test("accepted apns-ids are counted per id and reported in canonical lowercase")
    func countsPerID() {
        let recorder = DeliveryRecorder()
        let id = "00a1b2c3-d4e5-4f60-8172-839405a6b7c8"
        recorder.recordAccepted(apnsID: id)
        recorder.recordAccepted(apnsID: id.uppercased())
        recorder.recordAccepted(apnsID: "0000000f-0000-4000-8000-000000000001")
        let snapshot = recorder.snapshot
        #expect(snapshot.accepted == 3)
        #expect(snapshot.acceptedByAPNsID == [id: 2, "0000000f-0000-4000-8000-000000000001": 1])
        #expect(snapshot.duplicateAPNsIDs == [id: 2])
    }

    @Test("an id that is not a UUID is kept as it came", arguments: ["not-a-uuid", "00a1b2c3-d4e5-4f60-8172-839405a6b7cZ", "00a1b2c3d4e54f608172839405a6b7c8"])
    func otherIDs(id: String) {
        let recorder = DeliveryRecorder()
        recorder.recordAccepted(apnsID: id)
        #expect(recorder.snapshot.acceptedByAPNsID == [id: 1])
    }

    @Test("reset forgets everything")
    func reset() {
        let recorder = DeliveryRecorder()
        recorder.recordAccepted(apnsID: "00a1b2c3-d4e5-4f60-8172-839405a6b7c8")
        recorder.reset()
        #expect(recorder.snapshot == DeliveryRecorder.Snapshot())
    }
}
