import APNsCore
import Testing
import WorkerConfiguration

/// `worker.shards` and how a worker's windows and connections are divided among its shards.
@Suite struct ShardSettingsTests {
    static func settings(_ yaml: String) throws -> WorkerSettings {
        try WorkerSettingsLoader.load(yaml: yaml, environment: [:])
    }

    @Test func partsAddUpToTheWholeAndNoneIsEmpty() {
        for count in 1...9 {
            for total in 0...40 {
                let parts = (0..<count).map { ShardShare(index: $0, of: count).of(total) }
                #expect(parts.allSatisfy { $0 >= 1 }, "\(total) among \(count): \(parts)")
                #expect(parts.max()! - parts.min()! <= 1, "\(total) among \(count): \(parts)")
                #expect(parts.reduce(0, +) == max(total, count), "\(total) among \(count): \(parts)")
            }
        }
        #expect(ShardShare.whole.of(7) == 7)
    }

    @Test func oneShardPerCoreByDefaultNeverMoreThanThePlaces() throws {
        let defaults = try Self.settings(Sample.credential)
        #expect(defaults.worker.shards == nil)
        #expect(defaults.shardCount(cores: 4) == 4)
        #expect(try Self.settings("worker: {shards: 3}\n" + Sample.credential).shardCount(cores: 8) == 3)
        #expect(try Self.settings("worker: {shards: 8, prefetch: 2}\n" + Sample.credential).shardCount(cores: 8) == 2, "a shard has a place of the prefetch")
        #expect(try Self.settings("worker: {max_concurrent_jobs: 1}\n" + Sample.credential).shardCount(cores: 8) == 1, "a shard has a job slot")
        #expect(Sample.problems("worker: {shards: 0}\n" + Sample.credential).map(\.path) == ["worker.shards"])
    }

    @Test func theShardsTogetherHoldWhatWasConfigured() throws {
        let yaml = """
            worker: {prefetch: 501, urgent_prefetch: 100, max_concurrent_jobs: 301, shards: 3}
            apns: {connections: 4}
            topology: {team_lanes: [{name: payments, queue: apns.jobs.payments, prefetch: 50}, {name: news, queue: apns.jobs.news}]}
            credentials:
              - {name: a, team_id: TEAMID0001, key_id: TESTKEY001, key_file: /keys/a.p8}
              - {name: b, team_id: TEAMID0001, key_id: TESTKEY002, key_file: /keys/b.p8, connections: 7}
            """
        let whole = try Self.settings(yaml)
        let shards = (0..<3).map { whole.shard(ShardShare(index: $0, of: 3)) }
        func sum(_ value: (WorkerSettings) -> Int) -> Int { shards.map(value).reduce(0, +) }
        #expect(sum(\.worker.prefetch) == 501)
        #expect(sum(\.worker.urgentPrefetch) == 100)
        #expect(sum { $0.worker.maxConcurrentJobs! } == 301)
        #expect(sum(\.apns.connections) == 4)
        #expect(sum { $0.credentials[1].connections! } == 7)
        #expect(sum { $0.prefetch(of: $0.topology.teamLanes[0]) } == 50)
        #expect(sum { $0.prefetch(of: $0.topology.teamLanes[1]) } == 501, "a team lane without its own prefetch divides the worker's")
        #expect(sum(\.jobConcurrency) == 301)
        #expect(shards.allSatisfy { $0.worker.name == whole.worker.name && $0.credentials.map(\.name) == ["a", "b"] }, "the rest is the worker's")
        #expect(whole.shard(.whole) == whole)
    }
}
