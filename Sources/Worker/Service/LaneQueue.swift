import AMQP
import WorkerConfiguration

/// Which delivery starts next, by lane: every decision of the intake, with no lock and no I/O.
///
/// Deliveries wait in their lane's line, in arrival order. An urgent one starts whenever a job slot is
/// free; a bulk one only while more than ``reserved`` slots are free, so bulk jobs never hold the last
/// ``reserved`` slots and an urgent job never waits for a bulk one to end.
struct LaneQueue: Sendable {
    let limit: Int
    let reserved: Int
    private var urgent = FIFO<AMQPDelivery>()
    private var bulk = FIFO<AMQPDelivery>()
    /// Jobs started and not finished, by lane.
    private(set) var runningUrgent = 0
    private(set) var runningBulk = 0

    init(limit: Int, reserved: Int) {
        precondition(limit > 0 && reserved >= 0 && reserved < limit, "validated by the configuration")
        self.limit = limit
        self.reserved = reserved
    }

    var running: Int { runningUrgent + runningBulk }
    var waitingUrgent: Int { urgent.count }
    var waitingBulk: Int { bulk.count }
    var isEmpty: Bool { urgent.isEmpty && bulk.isEmpty }

    mutating func arrived(_ delivery: AMQPDelivery, lane: Lane) {
        switch lane {
        case .urgent: urgent.append(delivery)
        case .bulk: bulk.append(delivery)
        }
    }

    /// The delivery to start now, if any may start: the urgent line's first, else the bulk line's
    /// first when that leaves the reserve free. Its slot is taken.
    mutating func start() -> (delivery: AMQPDelivery, lane: Lane)? {
        if running < limit, let next = urgent.popFirst() {
            runningUrgent += 1
            return (next, .urgent)
        }
        if running < limit - reserved, let next = bulk.popFirst() {
            runningBulk += 1
            return (next, .bulk)
        }
        return nil
    }

    /// A job of `lane` ended: its slot is free.
    mutating func finished(_ lane: Lane) {
        switch lane {
        case .urgent: runningUrgent -= 1
        case .bulk: runningBulk -= 1
        }
        assert(runningUrgent >= 0 && runningBulk >= 0, "a job ended twice")
    }

    /// Every waiting delivery, urgent first, leaving the lines empty.
    mutating func removeAll() -> [AMQPDelivery] {
        var all: [AMQPDelivery] = []
        while let next = urgent.popFirst() { all.append(next) }
        while let next = bulk.popFirst() { all.append(next) }
        return all
    }
}

/// A first-in, first-out line: an array read from a moving head, compacted once the head passes half
/// of it (removing from the front of an array is O(n)).
struct FIFO<Element> {
    private var items: [Element] = []
    private var head = 0

    var count: Int { items.count - head }
    var isEmpty: Bool { head == items.count }

    mutating func append(_ item: Element) {
        items.append(item)
    }

    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}

extension FIFO: Sendable where Element: Sendable {}
