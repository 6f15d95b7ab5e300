import NIOConcurrencyHelpers
import Testing
import TestSupport
@testable import Worker

@Suite("Multicast send permits")
struct SendPermitsTests {
    final class Key: Sendable {}

    @Test("first come, first served; a withdrawn wait ends without a permit and is skipped")
    func order() async throws {
        let permits = SendPermits(capacity: 1)
        let (first, second, third) = (Key(), Key(), Key())
        #expect(await permits.acquire(for: ObjectIdentifier(first), while: { true }))
        let secondWait = Task { await permits.acquire(for: ObjectIdentifier(second), while: { true }) }
        try await Condition.wait("the second caller waits") { permits.waiting == 1 }
        let thirdWait = Task { await permits.acquire(for: ObjectIdentifier(third), while: { true }) }
        try await Condition.wait("the third caller waits behind it") { permits.waiting == 2 }
        permits.withdraw(ObjectIdentifier(second))
        #expect(await secondWait.value == false)
        #expect(permits.waiting == 1)
        #expect(permits.inUse == 1)
        permits.release(urgent: false)
        #expect(await thirdWait.value == true, "the withdrawn waiter's turn went to the next one")
        permits.release(urgent: false)
        #expect(permits.inUse == 0)
    }

    @Test("an urgent job's sender takes the next permit ahead of bulk senders that waited longer; a bulk one never jumps an urgent one")
    func urgentFirst() async throws {
        let permits = SendPermits(capacity: 1)
        let (holder, bulk, urgent, late) = (Key(), Key(), Key(), Key())
        #expect(await permits.acquire(for: ObjectIdentifier(holder), while: { true }))
        let bulkWait = Task { await permits.acquire(for: ObjectIdentifier(bulk), while: { true }) }
        try await Condition.wait("the bulk sender waits") { permits.waiting == 1 }
        let urgentWait = Task { await permits.acquire(for: ObjectIdentifier(urgent), urgent: true, while: { true }) }
        try await Condition.wait("the urgent sender waits too") { permits.waiting == 2 }
        permits.release(urgent: false)
        #expect(await urgentWait.value == true, "the urgent sender first")
        #expect(permits.waiting == 1, "the bulk sender still waits")
        permits.release(urgent: true)
        #expect(await bulkWait.value == true)
        permits.release(urgent: false)
        #expect(await permits.acquire(for: ObjectIdentifier(late), urgent: true, while: { true }), "a free permit and nobody waiting")
        permits.release(urgent: true)
        #expect(permits.inUse == 0)
    }

    @Test("a wait no longer wanted returns at once, taking nothing")
    func unwanted() async {
        let permits = SendPermits(capacity: 2)
        #expect(await permits.acquire(for: ObjectIdentifier(Key()), while: { false }) == false)
        #expect(permits.inUse == 0)
    }

    @Test("bulk senders hold no more than the bulk limit while urgent ones may take every permit; a raise serves waiting bulk senders at once")
    func bulkLimit() async throws {
        let permits = SendPermits(capacity: 3)
        permits.setBulkLimit(1)
        let (first, second, urgent) = (Key(), Key(), Key())
        #expect(await permits.acquire(for: ObjectIdentifier(first), while: { true }))
        let secondWait = Task { await permits.acquire(for: ObjectIdentifier(second), while: { true }) }
        try await Condition.wait("the second bulk sender waits, permits free") { permits.waiting == 1 }
        #expect(permits.inUse == 1)
        #expect(permits.bulkUse.saturated)
        #expect(await permits.acquire(for: ObjectIdentifier(urgent), urgent: true, while: { true }), "urgent senders are not held to the bulk limit")
        #expect(await permits.acquire(for: ObjectIdentifier(urgent), urgent: true, while: { true }))
        permits.release(urgent: true)
        #expect(permits.waiting == 1, "a permit an urgent sender gives back goes to no bulk sender over the limit")
        permits.setBulkLimit(2)
        #expect(await secondWait.value == true, "the raise served it")
        #expect(permits.bulkUse.inUse == 2)
    }

    @Test("under a lowered limit a bulk sender gives its permit back before its next token and waits behind the senders already waiting")
    func keepUnderALoweredLimit() async throws {
        let permits = SendPermits(capacity: 4)
        let (holder, other, waiter) = (Key(), Key(), Key())
        #expect(await permits.acquire(for: ObjectIdentifier(holder), while: { true }))
        #expect(await permits.acquire(for: ObjectIdentifier(other), while: { true }))
        #expect(await permits.keep(for: ObjectIdentifier(holder), while: { true }), "under the limit: kept, no wait")
        permits.setBulkLimit(1)
        let waiting = Task { await permits.acquire(for: ObjectIdentifier(waiter), while: { true }) }
        try await Condition.wait("a new bulk sender waits") { permits.waiting == 1 }
        let kept = Task { await permits.keep(for: ObjectIdentifier(holder), while: { true }) }
        try await Condition.wait("the holder gave its permit back and queued") { permits.waiting == 2 }
        #expect(permits.bulkUse.inUse == 1)
        #expect(await permits.keep(for: ObjectIdentifier(other), while: { true }), "at the limit now: kept")
        permits.release(urgent: false)
        #expect(await waiting.value == true, "the sender that waited first goes first")
        permits.withdraw(ObjectIdentifier(holder))
        #expect(await kept.value == false, "withdrawn: the sender ends holding nothing")
        permits.release(urgent: false)
        #expect(permits.inUse == 0)
    }

    @Test("a withdrawal ends every wait of its key, and none of another key's")
    func withdrawEveryWaitOfAKey() async throws {
        let permits = SendPermits(capacity: 1)
        let (holder, job, loan) = (Key(), Key(), Key())
        #expect(await permits.acquire(for: ObjectIdentifier(holder), while: { true }))
        let fanOut = Task { await permits.acquire(for: ObjectIdentifier(job), while: { true }) }
        try await Condition.wait("the job's fan-out waits") { permits.waiting == 1 }
        let loanBack = Task { await permits.acquire(for: ObjectIdentifier(loan), while: { true }) }
        try await Condition.wait("a rate wait's loan waits") { permits.waiting == 2 }
        let parked = Task { await permits.acquire(for: ObjectIdentifier(job), while: { true }) }
        try await Condition.wait("one of the job's senders waits") { permits.waiting == 3 }
        permits.withdraw(ObjectIdentifier(job))
        #expect(await fanOut.value == false)
        #expect(await parked.value == false)
        #expect(permits.waiting == 1, "the loan, under its own key, still waits")
        permits.release(urgent: false)
        #expect(await loanBack.value == true)
        permits.release(urgent: false)
        #expect(permits.inUse == 0)
    }

    @Test("withdrawn waits leave the others served in their order, the first in line withdrawn included")
    func withdrawnTurnsSkipped() async throws {
        let permits = SendPermits(capacity: 1)
        #expect(await permits.acquire(for: ObjectIdentifier(Key()), while: { true }))
        let keys = (0..<5).map { _ in Key() }
        let served = NIOLockedValueBox<[Int]>([])
        var waits: [Task<Bool, Never>] = []
        for (number, key) in keys.enumerated() {
            waits.append(Task {
                let taken = await permits.acquire(for: ObjectIdentifier(key), while: { true })
                if taken { served.withLockedValue { $0.append(number) } }
                return taken
            })
            try await Condition.wait("caller \(number) waits") { permits.waiting == number + 1 }
        }
        permits.withdraw(ObjectIdentifier(keys[0]))
        permits.withdraw(ObjectIdentifier(keys[2]))
        #expect(await waits[0].value == false)
        #expect(await waits[2].value == false)
        #expect(permits.waiting == 3)
        for order in [[1], [1, 3], [1, 3, 4]] {
            permits.release(urgent: false)
            try await Condition.wait("the next waiter is served") { served.withLockedValue { $0.count } == order.count }
            #expect(served.withLockedValue { $0 } == order)
            #expect(permits.inUse == 1)
        }
        permits.release(urgent: false)
        #expect(permits.waiting == 0 && permits.inUse == 0)
        #expect(await permits.acquire(for: ObjectIdentifier(keys[0]), while: { true }), "a withdrawn key may wait again, and nobody is ahead")
    }

    @Test("under constant contention the waiter list stays bounded while thousands of permits change hands")
    func bounded() async {
        let permits = SendPermits(capacity: 4)
        await withDiscardingTaskGroup { group in
            for _ in 0..<8 {
                group.addTask {
                    let key = Key()
                    for _ in 0..<2_000 {
                        guard await permits.acquire(for: ObjectIdentifier(key), while: { true }) else { return }
                        permits.release(urgent: false)
                    }
                }
            }
        }
        #expect(permits.inUse == 0)
    }
}
