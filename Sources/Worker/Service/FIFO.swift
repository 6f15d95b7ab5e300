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

    /// The first element, left in the line.
    var first: Element? { head < items.count ? items[head] : nil }

    /// Takes out the first element matching `matches` wherever it stands (O(n): for rare withdrawals).
    mutating func remove(firstWhere matches: (Element) -> Bool) -> Element? {
        guard let index = items[head...].firstIndex(where: matches) else { return nil }
        return items.remove(at: index)
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
