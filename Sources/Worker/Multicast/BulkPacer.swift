/// How many permits bulk multicast senders may hold (``SendPermits/setBulkLimit(_:)``): raised while the
/// worker keeps up with them, cut when its threads fall behind.
///
/// A request in flight that APNs could not have answered yet only waits in the worker: for a thread,
/// for its event loop, behind other answers. Measured on loopback, 100 bulk requests in flight drained
/// 200,000 notifications as fast as 2,000 did, for less CPU per notification, while 2,000 made an
/// urgent job's p99 five times longer. How many a path needs depends on its round trip, which the
/// worker cannot tell apart from the time APNs takes; what it can tell is its own lateness: how late
/// a short sleep wakes up. So the limit grows while wake-ups are on time and the senders use all of it,
/// and shrinks by half when they come late: the increase is multiplicative (a quarter per window),
/// so a path with a long round trip reaches the ceiling within a second or two. A window is late when
/// any of its wake-ups is: asking for two left urgent p99 behind a multicast backlog on loopback at
/// 7-10 ms, against 4-5 ms for one (1-3 ms alone). A host that wakes the worker late for reasons of its
/// own (a throttled CPU quota) pins the limit to its floor; such a fleet turns pacing off
/// (`worker.multicast_pacing: false`).
///
/// Lateness alone left urgent jobs three to seven times slower during a drain: with the senders on the
/// event loops the sleeps it measures are rarely late, and its floor (50 requests) still fills both
/// cores. So urgent jobs' own latency, start to ack (``UrgentLatencies``), is the second measure: while
/// it is over its baseline, the limit is cut in proportion, down to 4 requests. Bulk work gives up
/// throughput only while urgent work is flowing and slowed, which a worker that sends no urgent jobs
/// never pays.
struct BulkPacer: Sendable {
    /// The most: every permit (``SendPermits/capacity``).
    let ceiling: Int
    /// The least, whatever the lateness: a fortieth of the ceiling (50 of 2,000), and never fewer than
    /// 16 (all of a smaller ceiling, which paces nothing: so few requests queue no time to speak of).
    /// Bulk work never stops; lateness from elsewhere (a busy host) cannot push it lower.
    let floor: Int
    private(set) var limit: Int

    /// Wake-ups later than this mean the worker's threads are behind: an urgent request waits about
    /// as long for its turn.
    static let tolerance: Duration = .milliseconds(1)

    /// Starts at the floor: a burst of bulk work grows into what it can use.
    init(ceiling: Int) {
        self.ceiling = max(1, ceiling)
        floor = min(self.ceiling, max(16, ceiling / 40))
        urgentFloor = min(self.ceiling, 4)
        limit = floor
    }

    /// Wake-ups later than ``tolerance`` that make a window late.
    static let lateWakeUps = 1

    /// The least while urgent jobs are slower than their baseline: 4 permits, or the ceiling when it is
    /// smaller. Below the lateness ``floor``: while urgent work is slowed, bulk work gives up
    /// throughput for it (docs/decisions.md, "Bulk multicast is paced by the worker's own lateness").
    let urgentFloor: Int
    /// Urgent latencies a window needs before it is judged; fewer wait for the next window.
    static let urgentSamples = 8
    /// The 90th percentile of urgent jobs' latency in each of the last windows judged, newest last:
    /// its least is the baseline, what urgent jobs take when bulk work is not in their way.
    private var urgentHistory: [Duration] = []
    /// Windows the baseline remembers (at 100 ms each, about ten seconds): a path that got slower for
    /// good (a farther broker, a slower APNs) becomes the new baseline once it has held that long.
    static let urgentHistoryLength = 100

    /// What urgent jobs take when bulk work is not in their way: the least 90th percentile of the last
    /// ``urgentHistoryLength`` windows judged.
    var urgentBaseline: Duration? { urgentHistory.min() }

    /// One window's measurements: how late each wake-up in it was, whether bulk senders wanted more
    /// permits than the limit at some point, and the latencies of urgent jobs acked meanwhile (empty
    /// when too few to judge). Returns the limit from now on.
    ///
    /// Urgent jobs slower than their baseline cut the limit to match (``urgentCut(_:)``), down to
    /// ``urgentFloor``; else a late wake-up halves it, down to ``floor``; else wanting more grows it.
    mutating func windowEnded(lateness: [Duration], saturated: Bool, urgent: [Duration] = []) -> Int {
        if let cut = urgentCut(urgent) {
            limit = max(urgentFloor, min(limit / 2, cut))
        } else if lateness.count(where: { $0 > Self.tolerance }) >= Self.lateWakeUps {
            // Never up: urgent slowness may have put the limit below this floor.
            limit = min(limit, max(floor, limit / 2))
        } else if saturated {
            limit = min(ceiling, limit + max(1, limit / 4))
        }
        return limit
    }

    /// Judges `latencies` (one window's, at least ``urgentSamples``): nil when their 90th percentile is
    /// within a quarter of the baseline and 250 µs, else the limit scaled down by how far over it is.
    /// The 90th percentile, not the 99th: a window holds about a hundred at 1,000 urgent jobs a second,
    /// and a 99th would be one job's luck. Half the baseline and 500 µs allowed 3 ms over a 1.7 ms
    /// baseline on loopback, which held the limit at 30-60 and left urgent p99 at 16-34 ms.
    private mutating func urgentCut(_ latencies: [Duration]) -> Int? {
        guard latencies.count >= Self.urgentSamples else { return nil }
        let p90 = latencies.sorted()[latencies.count * 9 / 10]
        urgentHistory.append(p90)
        if urgentHistory.count > Self.urgentHistoryLength { urgentHistory.removeFirst() }
        guard let baseline = urgentBaseline else { return nil }
        let allowed = baseline + baseline / 4 + .microseconds(250)
        guard p90 > allowed else { return nil }
        return Int(Double(limit) * (allowed / p90))
    }
}
