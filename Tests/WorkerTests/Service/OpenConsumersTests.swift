import NIOConcurrencyHelpers
import Testing
@testable import Worker

/// When a draining worker's shards hand deliveries back: no I/O, no broker.
@Suite("Open consumers")
struct OpenConsumersTests {
    /// The hand-backs that ran, by shard.
    final class Ran: Sendable {
        private let shards = NIOLockedValueBox<[Int]>([])
        var all: [Int] { shards.withLockedValue { $0 } }
        func handBack(_ shard: Int) -> @Sendable () -> Void { { self.shards.withLockedValue { $0.append(shard) } } }
    }

    @Test("no shard hands back while another shard still consumes; all do once the last consumer goes")
    func waitsForTheLast() {
        let consumers = OpenConsumers(shards: 3)
        let ran = Ran()
        consumers.consumerGone(shard: 2, then: ran.handBack(2))
        consumers.consumerGone(shard: 0, then: ran.handBack(0))
        #expect(ran.all.isEmpty, "shard 1 still consumes")
        consumers.consumerGone(shard: 1, then: ran.handBack(1))
        #expect(ran.all.sorted() == [0, 1, 2])
    }

    @Test("a shard that never consumed counts as gone; saying a shard is gone twice does not stand in for another")
    func neverConsumedAndRepeats() {
        let consumers = OpenConsumers(shards: 3)
        let ran = Ran()
        consumers.consumerGone(shard: 1)
        consumers.consumerGone(shard: 0, then: ran.handBack(0))
        consumers.consumerGone(shard: 0)
        #expect(ran.all.isEmpty, "shard 2 still consumes")
        consumers.consumerGone(shard: 2)
        #expect(ran.all == [0])
    }

    @Test("once none consumes, a hand-back runs at once, and each runs only once")
    func afterTheLast() {
        let consumers = OpenConsumers(shards: 1)
        let ran = Ran()
        consumers.consumerGone(shard: 0, then: ran.handBack(0))
        #expect(ran.all == [0])
        consumers.consumerGone(shard: 0, then: ran.handBack(5))
        #expect(ran.all == [0, 5])
    }
}
