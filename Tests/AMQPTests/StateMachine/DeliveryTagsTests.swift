import Testing
@testable import AMQP

@Suite("Delivery tags: coalescing acks (no I/O)")
struct DeliveryTagsTests {
    @Test("asks covering the oldest deliveries become one multiple ack; the others stay single", arguments: [
        ([1, 2, 3], [(3, true)]),
        ([1], [(1, false)]),
        ([2, 3], [(2, false), (3, false)]),
        ([1, 2, 4], [(2, true), (4, false)]),
        ([5, 4, 3, 2, 1], [(5, true)]),
    ] as [([UInt64], [(UInt64, Bool)])])
    func coalescing(asks: [UInt64], frames: [(UInt64, Bool)]) {
        var tags = DeliveryTags()
        for tag in 1...5 { tags.delivered(UInt64(tag)) }
        for tag in asks { tags.ack(tag) }
        let flushed = tags.flush()
        #expect(flushed.map(\.tag) == frames.map(\.0))
        #expect(flushed.map(\.multiple) == frames.map(\.1))
        #expect(tags.count == 5 - asks.count)
    }

    @Test("a rejected delivery no longer holds back a multiple ack over it")
    func rejectionsOpenTheWay() {
        var tags = DeliveryTags()
        for tag in 1...4 { tags.delivered(UInt64(tag)) }
        tags.rejected(1)
        tags.ack(2)
        tags.ack(3)
        #expect(tags.flush().map { [$0.tag, $0.multiple ? 1 : 0] } == [[3, 1]])
        #expect(tags.count == 1)
    }

    @Test("10,000 deliveries acked in order, flushed every 100, stay 100 multiple acks and leave nothing behind")
    func manyInOrder() {
        var tags = DeliveryTags()
        var frames = 0
        for tag in 1...10_000 {
            tags.delivered(UInt64(tag))
            tags.ack(UInt64(tag))
            if tag % 100 == 0 { frames += tags.flush().count }
        }
        #expect(frames == 100)
        #expect(tags.count == 0)
    }
}
