import NIOCore

/// A first-in, first-out line of waiting deliveries (or senders).
///
/// A ring buffer: taking the first element clears its slot, so what left the line is released at
/// once. The array with a moving head this replaced kept every popped element until a compaction:
/// under `apns-bench memory` that held up to as many finished jobs' deliveries (their bodies
/// included) as were still waiting, thousands of them.
struct FIFO<Element> {
    private var items = CircularBuffer<Element>()
    /// The most a line keeps room for once it empties again: a burst of waiting deliveries (up to a
    /// prefetch's worth) does not hold its ring's capacity for the rest of the process.
    private static var retainedCapacity: Int { 1024 }

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }

    mutating func append(_ item: Element) {
        items.append(item)
    }

    /// The first element, left in the line.
    var first: Element? { items.first }

    /// Empties the line, keeping up to the room a line keeps once empty.
    mutating func removeAll() {
        items.removeAll(keepingCapacity: items.capacity <= Self.retainedCapacity)
    }

    mutating func popFirst() -> Element? {
        guard let item = items.popFirst() else { return nil }
        releaseRoomIfEmpty()
        return item
    }

    private mutating func releaseRoomIfEmpty() {
        if items.isEmpty, items.capacity > Self.retainedCapacity { items = CircularBuffer() }
    }
}

extension FIFO: Sendable where Element: Sendable {}
