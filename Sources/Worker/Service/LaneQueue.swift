import AMQP
import WorkerConfiguration

/// Which delivery starts next, by lane and by credential: every decision of the intake, with no lock
/// and no I/O.
///
/// Deliveries wait in a line per lane and credential. An urgent one starts whenever a job slot is
/// free; a bulk one only while more than ``reserved`` slots are free, so bulk jobs never hold the last
/// ``reserved`` slots and an urgent job never waits for a bulk one to end. Within a lane, the next
/// delivery is the first of the credential that holds the fewest slots per unit of its weight (the
/// earliest arrival on a tie): while several credentials' jobs wait, each gets its weighted share of
/// the slots, and one whose answers are slow cannot take the slots another's jobs need; a credential
/// alone may use them all.
struct LaneQueue: Sendable {
    /// A delivery as the intake started it: its lane and its credential, which ``finished(_:)`` takes back.
    struct Started: Sendable {
        let delivery: AMQPDelivery
        let lane: Lane
        let credential: String
    }

    /// One credential's slots in use and its waiting deliveries, each with its arrival number.
    private struct Share {
        let credential: String
        var weight: Int
        var running = 0
        var urgent = FIFO<(Int, AMQPDelivery)>()
        var bulk = FIFO<(Int, AMQPDelivery)>()

        var isIdle: Bool { running == 0 && urgent.isEmpty && bulk.isEmpty }

        func line(_ lane: Lane) -> FIFO<(Int, AMQPDelivery)> { lane == .urgent ? urgent : bulk }

        /// The first delivery waiting in `lane`, taken out.
        mutating func popFirst(_ lane: Lane) -> AMQPDelivery? {
            (lane == .urgent ? urgent.popFirst() : bulk.popFirst())?.1
        }
    }

    let limit: Int
    let reserved: Int
    /// In an array rather than a table by credential: a worker serves a few credentials, and a
    /// table's value is changed through `Dictionary`'s `modify` accessor, a coroutine whose frame is
    /// heap-allocated, several times per job.
    private var shares: [Share] = []
    private var arrivals = 0
    /// Jobs started and not finished, and deliveries waiting, by lane.
    private(set) var runningUrgent = 0
    private(set) var runningBulk = 0
    private(set) var waitingUrgent = 0
    private(set) var waitingBulk = 0

    init(limit: Int, reserved: Int) {
        precondition(limit > 0 && reserved >= 0 && reserved < limit, "validated by the configuration")
        self.limit = limit
        self.reserved = reserved
    }

    var running: Int { runningUrgent + runningBulk }
    var isEmpty: Bool { waitingUrgent == 0 && waitingBulk == 0 }

    /// Slots in use and deliveries waiting, per credential with either.
    var credentials: [(credential: String, running: Int, waiting: Int)] {
        shares.map { ($0.credential, $0.running, $0.urgent.count + $0.bulk.count) }.sorted { $0.credential < $1.credential }
    }

    /// `delivery` waits in `lane`'s line of `credential` (`weight`: its share relative to the others',
    /// as configured now).
    mutating func arrived(_ delivery: AMQPDelivery, lane: Lane, credential: String = "", weight: Int = 1) {
        arrivals += 1
        let index = index(of: credential) ?? {
            shares.append(Share(credential: credential, weight: weight))
            return shares.count - 1
        }()
        shares[index].weight = max(1, weight)
        // A team lane's jobs wait as bulk ones: their lane differs at the broker, not here.
        if lane.isUrgent {
            shares[index].urgent.append((arrivals, delivery))
            waitingUrgent += 1
        } else {
            shares[index].bulk.append((arrivals, delivery))
            waitingBulk += 1
        }
    }

    /// The delivery to start now, if any may start: urgent first, then bulk when that leaves the
    /// reserve free; in each, the credential furthest below its share. Its slot is taken.
    mutating func start() -> Started? {
        if running < limit, waitingUrgent > 0, let started = start(from: .urgent) { return started }
        if running < limit - reserved, waitingBulk > 0 { return start(from: .bulk) }
        return nil
    }

    /// The first delivery of `lane`'s credential furthest below its share, its slot taken.
    private mutating func start(from lane: Lane) -> Started? {
        guard let index = nextShare(in: lane), let delivery = shares[index].popFirst(lane) else { return nil }
        shares[index].running += 1
        if lane.isUrgent {
            runningUrgent += 1
            waitingUrgent -= 1
        } else {
            runningBulk += 1
            waitingBulk -= 1
        }
        return Started(delivery: delivery, lane: lane, credential: shares[index].credential)
    }

    /// A job the intake started ended: its slot is free.
    mutating func finished(_ started: Started) {
        if started.lane.isUrgent { runningUrgent -= 1 } else { runningBulk -= 1 }
        if let index = index(of: started.credential) {
            shares[index].running -= 1
            if shares[index].isIdle { shares.remove(at: index) }
        }
        assert(runningUrgent >= 0 && runningBulk >= 0, "a job ended twice")
    }

    /// Every waiting delivery, urgent first, leaving the lines empty.
    mutating func removeAll() -> [AMQPDelivery] {
        var urgent: [(Int, AMQPDelivery)] = []
        var bulk: [(Int, AMQPDelivery)] = []
        for index in shares.indices {
            while let next = shares[index].urgent.popFirst() { urgent.append(next) }
            while let next = shares[index].bulk.popFirst() { bulk.append(next) }
        }
        shares.removeAll { $0.isIdle }
        (waitingUrgent, waitingBulk) = (0, 0)
        return (urgent.sorted { $0.0 < $1.0 } + bulk.sorted { $0.0 < $1.0 }).map(\.1)
    }

    /// Where `credential`'s share is, if it has one.
    private func index(of credential: String) -> Int? {
        shares.firstIndex { $0.credential == credential }
    }

    /// The share of the credential with deliveries waiting in `lane` that holds the fewest slots per
    /// unit of weight; on a tie, the one whose first waiting delivery arrived first. A scan: a worker
    /// serves a few credentials, not thousands.
    private func nextShare(in lane: Lane) -> Int? {
        var best: (index: Int, running: Int, weight: Int, arrival: Int)?
        for (index, share) in shares.enumerated() {
            guard let (arrival, _) = share.line(lane).first else { continue }
            if let current = best {
                let load = share.running * current.weight
                let currentLoad = current.running * share.weight
                guard load < currentLoad || (load == currentLoad && arrival < current.arrival) else { continue }
            }
            best = (index, share.running, share.weight, arrival)
        }
        return best?.index
    }
}
