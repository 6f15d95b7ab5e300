import APNsCore
import Testing
@testable import APNsClient

@Suite("Open streams: a connection's streams on the wire, by stream id (no I/O)")
struct OpenStreamsTests {
    @Test("streams are found, replaced and taken out by id; ids come back in ascending order")
    func basics() {
        var streams = OpenStreams<String>(capacity: 4)
        #expect(streams.isEmpty && streams[1] == nil && streams.removeValue(for: 1) == nil)
        for id in stride(from: Int32(1), through: 11, by: 2) { streams.insert("s\(id)", for: id) }
        #expect(streams.count == 6, "six streams in a table that began with four buckets: it grew")
        #expect(streams.ids == [1, 3, 5, 7, 9, 11])
        streams.insert("again", for: 5)
        #expect(streams.count == 6 && streams[5] == "again", "a held id is replaced, not added")
        #expect(streams.removeValue(for: 3) == "s3" && streams.removeValue(for: 3) == nil)
        #expect(streams[3] == nil && streams[11] == "s11" && streams.count == 5)
        streams.removeAll()
        #expect(streams.isEmpty && streams.ids.isEmpty && streams[1] == nil)
    }

    @Test("ids that share a bucket (a stream outliving the table's width) are all found after deletions around them")
    func collisions() {
        // 16 buckets: ids 1, 33, 65 and 97 all belong in bucket 0 (the last three are displaced), 3 in bucket 1.
        var streams = OpenStreams<Int32>(capacity: 16)
        for id: Int32 in [1, 33, 3, 65, 97] { streams.insert(id, for: id) }
        #expect(streams.removeValue(for: 1) == 1)
        #expect(streams[33] == 33 && streams[3] == 3 && streams[65] == 65 && streams[97] == 97)
        #expect(streams.removeValue(for: 65) == 65)
        #expect(streams[33] == 33 && streams[3] == 3 && streams[97] == 97 && streams[65] == nil)
        // Bucket 0 is free again: 1 goes back to it. Ids 31, 63 and 95 all belong in bucket 15.
        streams.insert(1, for: 1)
        #expect(streams.removeValue(for: 1) == 1 && streams[1] == nil)
        for id: Int32 in [31, 63, 95] { streams.insert(id, for: id) }
        #expect(streams.removeValue(for: 31) == 31)
        #expect(streams[63] == 63 && streams[95] == 95 && streams[33] == 33 && streams[3] == 3 && streams[97] == 97)
        #expect(streams.ids == [3, 33, 63, 95, 97] && streams.count == 5)
    }

    @Test("a long run of opens and random closes agrees with a dictionary at every step", arguments: [UInt64(1), 2, 3])
    func agreesWithADictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var streams = OpenStreams<Int>(capacity: 8)
        var model: [Int32: Int] = [:]
        var nextID: Int32 = 1
        // Some streams stay open for the whole run (as one stuck request among thousands answered),
        // so later ids keep landing on their buckets and runs wrap around the table.
        for step in 0..<20_000 {
            if model.count < 300, model.isEmpty || Int.random(in: 0..<3, using: &random) > 0 {
                streams.insert(step, for: nextID)
                model[nextID] = step
                nextID += 2
            } else {
                let id = model.keys.randomElement(using: &random)!
                let lingers = id % 97 == 1
                if !lingers {
                    #expect(streams.removeValue(for: id) == model.removeValue(forKey: id))
                }
            }
            let probe = Int32.random(in: 0...nextID, using: &random) | 1
            #expect(streams[probe] == model[probe], "stream \(probe) at step \(step)")
            #expect(streams.count == model.count)
        }
        #expect(streams.ids == model.keys.sorted())
        for (id, value) in model { #expect(streams[id] == value) }
    }
}
