import Synchronization
import Testing
import TestSupport
@testable import Worker

/// Redeliveries waiting for their first delivery's outcome: no I/O, no broker.
@Suite("Jobs at APNs")
struct JobsAtAPNsTests {
    @Test("with nothing of the job at APNs a redelivery goes on at once")
    func nothingToWaitFor() async {
        let jobs = JobsAtAPNs()
        jobs.begin("other")
        #expect(await jobs.waitUntilSettled("job-1") == false)
    }

    @Test("a redelivery waits until every delivery of its job at APNs has ended")
    func waitsForTheLast() async throws {
        let jobs = JobsAtAPNs()
        jobs.begin("job-1")
        jobs.begin("job-1")
        let resumed = Atomic(false)
        let waiting = Task {
            let waited = await jobs.waitUntilSettled("job-1")
            resumed.store(true, ordering: .relaxed)
            return waited
        }
        try await Condition.wait("the redelivery waits") { jobs.waiting(for: "job-1") == 1 }
        jobs.end("job-1")
        // The first end resumes nobody (one delivery is still at APNs): the waiter stays registered,
        // which a wake-up would have removed.
        #expect(jobs.waiting(for: "job-1") == 1, "one delivery of the job is still at APNs")
        #expect(resumed.load(ordering: .relaxed) == false)
        jobs.end("job-1")
        #expect(await waiting.value == true)
        #expect(await jobs.waitUntilSettled("job-1") == false, "nothing is left once the last one ended")
    }

    @Test("ending a job that is not at APNs changes nothing")
    func unmatchedEnd() async {
        let jobs = JobsAtAPNs()
        jobs.end("job-1")
        jobs.begin("job-2")
        jobs.end("job-1")
        #expect(await jobs.waitUntilSettled("job-1") == false)
    }
}
