import Testing
import WorkerConfiguration

/// `credentials[].weight`, `rate_limit`, `topic_rate_limits` and `worker.fleet_size`.
@Suite struct SharesAndLimitsTests {
    static let twoTeams = """
        worker: {fleet_size: 4}
        credentials:
          - {name: a, team_id: TEAMID0001, key_id: TESTKEY001, key_file: /keys/a.p8, weight: 3, rate_limit: 2000,
             topic_rate_limits: {com.acme.app.voip: 100}}
          - {name: b, team_id: TEAMID0002, key_id: TESTKEY002, key_file: /keys/b.p8}
        """

    @Test func readWithTheirDefaults() throws {
        let settings = try WorkerSettingsLoader.load(yaml: Self.twoTeams, environment: [:])
        #expect(settings.worker.fleetSize == 4)
        #expect(settings.credentials.map(\.weight) == [3, 1])
        #expect(settings.credentials.map(\.rateLimit) == [2000, nil])
        #expect(settings.credentials[0].topicRateLimits == ["com.acme.app.voip": 100])
        #expect(settings.credentials[1].topicRateLimits.isEmpty)
        #expect(try WorkerSettingsLoader.load(yaml: Sample.credential, environment: [:]).worker.fleetSize == nil)
    }

    @Test func theUrgentLaneNeedsAKeyAndAQueueOfItsOwn() {
        let sameKey = Sample.problems("topology: {urgent_routing_key: send}\n" + Sample.credential)
        #expect(sameKey.map(\.path) == ["topology.urgent_routing_key"])
        #expect(sameKey.first?.message.contains("pushed twice") == true)
        #expect(Sample.problems("topology: {urgent_queue: apns.jobs}\n" + Sample.credential).map(\.path) == ["topology.urgent_queue"])
        #expect((try? WorkerSettingsLoader.load(yaml: "topology: {urgent_queue: null, urgent_routing_key: send}\n" + Sample.credential, environment: [:])) != nil, "no urgent lane, no clash")
    }

    @Test func teamLanesReadWithTheirDefaultsAndWidenTheDeliveryWindow() throws {
        let yaml = """
            worker: {prefetch: 200}
            topology:
              team_lanes:
                - {name: payments}
                - {name: marketing, queue: mk.jobs, prefetch: 50}
            """ + "\n" + Sample.credential
        let settings = try WorkerSettingsLoader.load(yaml: yaml, environment: [:])
        #expect(settings.topology.teamLanes == [TeamLane(name: "payments", queue: "apns.jobs.payments"), TeamLane(name: "marketing", queue: "mk.jobs", prefetch: 50)])
        #expect(settings.deliveryWindow == 200 + 100 + 200 + 50, "bulk, urgent, and each team lane's window")
        #expect(settings.topology.lanes == [.bulk, .urgent, .team("payments"), .team("marketing")])
    }

    @Test func aTeamLaneNeedsANameAndAQueueOfItsOwn() {
        func paths(_ lanes: String) -> [String] {
            Sample.problems("topology:\n  team_lanes:\n" + lanes + "\n" + Sample.credential).map(\.path).sorted()
        }
        #expect(paths("    - {name: a.b}") == ["topology.team_lanes[0].name"], "a dot would clash with retry tiers' keys")
        #expect(paths("    - {name: urgent}") == ["topology.team_lanes[0].name", "topology.team_lanes[0].queue"], "its key, and its default queue is the urgent lane's")
        #expect(paths("    - {name: send}") == ["topology.team_lanes[0].name"], "the bulk lane's routing key")
        #expect(paths("    - {name: x}\n    - {name: x, queue: other}") == ["topology.team_lanes[1].name"])
        #expect(paths("    - {name: x, queue: apns.dead}") == ["topology.team_lanes[0].queue"])
        #expect(paths("    - {name: x, queue: apns.retry.5s}") == ["topology.team_lanes[0].queue"])
        #expect(paths("    - {name: x, queue: apns.retry.x.5s}") == ["topology.team_lanes[0].queue"], "its own retry tier")
        let urgentQueueAsName = Sample.problems("topology:\n  urgent_queue: fast\n  team_lanes: [{name: fast}]\n" + Sample.credential)
        #expect(urgentQueueAsName.map(\.path) == ["topology.team_lanes[0].name"], "the urgent lane's queue as a team's key")
        #expect(paths("    - {name: a, queue: b}\n    - {name: b}") == ["topology.team_lanes[0].queue", "topology.team_lanes[1].name"], "one's queue is the other's key")
        #expect(paths("    - {name: x, queue: send}") == ["topology.team_lanes[0].queue"], "the bulk lane's key")
        #expect(paths("    - {name: x}\n    - {name: y, queue: apns.jobs.x}") == ["topology.team_lanes[1].queue"])
        #expect(paths("    - {queue: q}") == ["topology.team_lanes[0].name"])
        #expect(paths("    - {name: x, prefetch: 0}") == ["topology.team_lanes[0].prefetch"])
    }

    @Test func outOfRangeIsAProblemAtItsKey() {
        let yaml = """
            worker: {fleet_size: 0}
            credentials:
              - {name: a, team_id: TEAMID0001, key_id: TESTKEY001, key_file: /keys/a.p8, weight: 0, rate_limit: -5,
                 topic_rate_limits: {com.acme.app: 0}}
            """
        let problems = Sample.problems(yaml)
        #expect(problems.map(\.path).sorted() == [
            "credentials[0].rate_limit", "credentials[0].topic_rate_limits", "credentials[0].weight", "worker.fleet_size",
        ])
        #expect(problems.first { $0.path == "credentials[0].topic_rate_limits" }?.message.contains("com.acme.app") == true)
    }
}
