/// The actions of one state-machine event, in order, with the first kept inline.
///
/// Nearly every event has none or one: a request's submit, an answer's resume. As an array, each of
/// those was an allocation, two per request on the connection's loop (counted with a uprobe on
/// `malloc` under `apns-bench client-only`); here they cost none, and only the rare event with more
/// than one action allocates, for the rest.
struct ActionList<Element>: Sequence, ExpressibleByArrayLiteral {
    private var head: Element?
    /// The second action on; empty while `head` is nil.
    private var rest: [Element] = []

    init() {}

    /// One action. The hot paths use this rather than a literal: `[action]` reaches
    /// ``init(arrayLiteral:)`` as a variadic array, which is the allocation this type exists to avoid.
    init(_ element: Element) {
        head = element
    }

    init(arrayLiteral elements: Element...) {
        for element in elements { append(element) }
    }

    mutating func append(_ element: Element) {
        if head == nil { head = element } else { rest.append(element) }
    }

    var first: Element? { head }
    var last: Element? { rest.last ?? head }
    var count: Int { head == nil ? 0 : 1 + rest.count }

    static func + (lhs: Self, rhs: Self) -> Self {
        var joined = lhs
        joined += rhs
        return joined
    }

    static func += (lhs: inout Self, rhs: Self) {
        for element in rhs { lhs.append(element) }
    }

    /// Calls `body` with each action in order. The connection carries its actions out this way rather
    /// than through ``makeIterator()``, whose iterator holds a copy of the list and hands out a copy of
    /// each action: an action carries a request's outcome or token, so every copy retained their strings.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        guard head != nil else { return }
        try body(head.unsafelyUnwrapped)
        for element in rest { try body(element) }
    }

    func makeIterator() -> Iterator {
        Iterator(list: self)
    }

    struct Iterator: IteratorProtocol {
        let list: ActionList
        var position = 0

        mutating func next() -> Element? {
            defer { position += 1 }
            guard position > 0 else { return list.head }
            return position <= list.rest.count ? list.rest[position - 1] : nil
        }
    }
}

extension ActionList: Equatable where Element: Equatable {}

extension ActionList: CustomStringConvertible {
    /// As an array prints, so a failed expectation reads the same as before.
    var description: String { Array(self).description }
}
