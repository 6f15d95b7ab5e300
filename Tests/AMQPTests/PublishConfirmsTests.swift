import Testing
@testable import AMQP

@Suite("Publisher confirm bookkeeping (no I/O)")
struct PublishConfirmsTests {
    @Test("publishes are numbered from 1 and a single ack settles only its own")
    func singleAcks() {
        var confirms = PublishConfirms<String>()
        #expect(confirms.sent("a") == 1)
        #expect(confirms.sent("b") == 2)
        #expect(confirms.sent("c") == 3)
        let settled = confirms.collectSettled(deliveryTag: 2, multiple: false, positive: true)
        #expect(settled.map(\.0) == ["b"])
        #expect(settled.map(\.1) == [.confirmed])
        #expect(confirms.count == 2)
    }

    @Test("a multiple ack settles everything up to its tag, oldest first, and only once")
    func multipleAcks() {
        var confirms = PublishConfirms<Int>()
        for waiter in 1...5 { confirms.sent(waiter) }
        _ = confirms.collectSettled(deliveryTag: 2, multiple: false, positive: true)
        let settled = confirms.collectSettled(deliveryTag: 4, multiple: true, positive: true)
        #expect(settled.map(\.0) == [1, 3, 4])
        #expect(confirms.collectSettled(deliveryTag: 4, multiple: true, positive: true).isEmpty)
        #expect(confirms.count == 1)
    }

    @Test("nacks settle as nacked, with multiple too")
    func nacks() {
        var confirms = PublishConfirms<Int>()
        for waiter in 1...3 { confirms.sent(waiter) }
        #expect(confirms.collectSettled(deliveryTag: 2, multiple: true, positive: false).map(\.1) == [.nacked, .nacked])
        #expect(confirms.collectSettled(deliveryTag: 3, multiple: false, positive: true).map(\.1) == [.confirmed])
    }

    @Test("a return marks its publish, whose ack then settles it as returned; the others stay confirmed")
    func returns() {
        var confirms = PublishConfirms<Int>()
        for waiter in 1...3 { confirms.sent(waiter) }
        confirms.returned(sequence: 2, replyCode: 312, replyText: "NO_ROUTE")
        let settled = confirms.collectSettled(deliveryTag: 3, multiple: true, positive: true)
        #expect(settled.map(\.1) == [.confirmed, .returned(replyCode: 312, replyText: "NO_ROUTE"), .confirmed])
    }

    @Test("a return for an unknown sequence is ignored")
    func strayReturn() {
        var confirms = PublishConfirms<Int>()
        confirms.sent(1)
        confirms.returned(sequence: 9, replyCode: 312, replyText: "NO_ROUTE")
        #expect(confirms.collectSettled(deliveryTag: 1, multiple: false, positive: true).map(\.1) == [.confirmed])
    }

    @Test("reset hands back every waiter in order and restarts the numbering")
    func reset() {
        var confirms = PublishConfirms<Int>()
        for waiter in 1...4 { confirms.sent(waiter) }
        _ = confirms.collectSettled(deliveryTag: 1, multiple: false, positive: true)
        #expect(confirms.reset() == [2, 3, 4])
        #expect(confirms.count == 0)
        #expect(confirms.nextSequence == 1)
    }
}

extension PublishConfirms {
    /// What `settle` hands its callback, as an array to compare.
    fileprivate mutating func collectSettled(deliveryTag: UInt64, multiple: Bool, positive: Bool) -> [(Waiter, AMQPPublishOutcome)] {
        var settled: [(Waiter, AMQPPublishOutcome)] = []
        settle(deliveryTag: deliveryTag, multiple: multiple, positive: positive) { settled.append(($0, $1)) }
        return settled
    }
}
