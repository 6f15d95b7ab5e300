import Testing
import WorkerConfiguration

/// `worker.max_concurrent_jobs` and the default it stands for.
@Suite struct JobConcurrencyTests {
    static func settings(_ yaml: String) throws -> WorkerSettings {
        try WorkerSettingsLoader.load(yaml: yaml, environment: [:])
    }

    @Test func byDefaultWhatAPNsCanHaveInFlightAtMostThePrefetch() throws {
        // One credential, two connections (apns.connections): 2,000 streams, but only 600 deliveries
        // (500 bulk, 100 urgent); a quarter of the slots is kept for urgent jobs.
        let defaults = try Self.settings(Sample.credential)
        #expect(defaults.jobConcurrency == 600)
        #expect(defaults.urgentReservedJobs == 100)
        let noLanes = try Self.settings("topology: {urgent_queue: null}\n" + Sample.credential)
        #expect(noLanes.jobConcurrency == 500 && noLanes.urgentReservedJobs == 0, "one lane: the bulk prefetch alone, nothing reserved")
        let wide = try Self.settings("worker: {prefetch: 10000}\n" + Sample.credential)
        #expect(wide.worker.maxConcurrentJobs == nil)
        #expect(wide.jobConcurrency == 2000)
    }

    @Test func everyCredentialsConnectionsCount() throws {
        let yaml = """
            worker: {prefetch: 65535}
            apns: {connections: 3}
            credentials:
              - {name: a, team_id: TEAMID0001, key_id: TESTKEY001, key_file: /keys/a.p8}
              - {name: b, team_id: TEAMID0001, key_id: TESTKEY002, key_file: /keys/b.p8, connections: 1}
            """
        #expect(try Self.settings(yaml).jobConcurrency == 4000)
    }

    @Test func theKeySetsItStillNoMoreThanThePrefetch() throws {
        #expect(try Self.settings("worker: {prefetch: 10000, max_concurrent_jobs: 300}\n" + Sample.credential).jobConcurrency == 300)
        #expect(try Self.settings("worker: {prefetch: 100, urgent_prefetch: 20, max_concurrent_jobs: 300}\n" + Sample.credential).jobConcurrency == 120)
        let small = try Self.settings("worker: {max_concurrent_jobs: 8, urgent_prefetch: 1}\n" + Sample.credential)
        #expect(small.urgentReservedJobs == 1, "a quarter of the slots, at most the urgent prefetch")
        #expect(try Self.settings("worker: {max_concurrent_jobs: null}\n" + Sample.credential).worker.maxConcurrentJobs == nil)
    }

    @Test func outOfRangeIsAProblemAtItsKey() {
        let problems = Sample.problems("worker: {max_concurrent_jobs: 0}\n" + Sample.credential)
        #expect(problems.map(\.path) == ["worker.max_concurrent_jobs"])
    }
}
