import Testing
import TestSupport
@testable import Worker

/// The bound on jobs processed at once: no I/O, no broker.
@Suite("Job slots")
struct JobSlotsTests {
    @Test("slots are taken up to the limit without waiting, and given back")
    func upToTheLimit() async {
        let slots = JobSlots(limit: 3)
        for _ in 0..<3 { #expect(await slots.acquire()) }
        #expect(slots.inUse == 3)
        slots.release()
        #expect(slots.inUse == 2)
    }

    @Test("with every slot taken the intake waits until a job gives one back")
    func waitsForARelease() async throws {
        let slots = JobSlots(limit: 1)
        #expect(await slots.acquire())
        let waiting = Task { await slots.acquire() }
        try await Condition.wait("the intake waits for a slot") { slots.isWaiting }
        #expect(slots.inUse == 1, "a waiting intake takes nothing")
        slots.release()
        #expect(await waiting.value)
        // The released slot went straight to the waiter: still one in use.
        #expect(slots.inUse == 1)
    }

    @Test("once closed nobody waits: a free slot is still taken, none free is a refusal")
    func closing() async throws {
        let slots = JobSlots(limit: 2)
        #expect(await slots.acquire())
        #expect(await slots.acquire())
        let waiting = Task { await slots.acquire() }
        try await Condition.wait("the intake waits for a slot") { slots.isWaiting }
        slots.close()
        #expect(await waiting.value == false)
        #expect(await slots.acquire() == false)
        slots.release()
        #expect(await slots.acquire())
        #expect(slots.inUse == 2)
    }

    @Test("a cancelled wait gives up without taking a slot")
    func cancellation() async throws {
        let slots = JobSlots(limit: 1)
        #expect(await slots.acquire())
        let waiting = Task { await slots.acquire() }
        try await Condition.wait("the intake waits for a slot") { slots.isWaiting }
        waiting.cancel()
        #expect(await waiting.value == false)
        #expect(!slots.isWaiting)
        slots.release()
        #expect(slots.inUse == 0)
    }
}
