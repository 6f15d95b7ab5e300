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
        limit = floor
    }

    /// Wake-ups later than ``tolerance`` that make a window late.
    static let lateWakeUps = 1

    /// One window's measurements: how late each wake-up in it was, and whether bulk senders wanted
    /// more permits than the limit at some point. Returns the limit from now on.
    mutating func windowEnded(lateness: [Duration], saturated: Bool) -> Int {
        if lateness.count(where: { $0 > Self.tolerance }) >= Self.lateWakeUps {
            limit = max(floor, limit / 2)
        } else if saturated {
            limit = min(ceiling, limit + max(1, limit / 4))
        }
        return limit
    }
}
