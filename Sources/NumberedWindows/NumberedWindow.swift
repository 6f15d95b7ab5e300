/// Values held under numbers that are handed out in increasing order and mostly finished in about that
/// order: AMQP publish sequence numbers and delivery tags, the AMQP driver's publish and batch ids. A
/// ring of slots indexed by `number - oldest`, in place of a `Dictionary`, which hashed each number on
/// every insert, lookup and removal (callgrind: about fourteen times per job in the AMQP client's
/// tables).
///
/// Its storage follows the span from the oldest number held to the newest, not the count held: one
/// value held long while thousands pass keeps a slot for each of them (a few bytes each) until it
/// goes; then the storage shrinks again, and it is let go once the window empties. Numbers may be
/// skipped (ids another table took). Not for numbers a peer chooses: a jump from 1 to 2³¹ would
/// allocate the whole span.
///
/// `@inlinable` throughout: used from other modules, generic code that is not inlined there runs
/// through value witnesses, which would cost more than the hashing it replaces.
public struct NumberedWindow<Value> {
    /// Power-of-two capacity, so a number's slot is a mask away.
    @usableFromInline var slots: ContiguousArray<Value?> = []
    /// The slot of ``oldest``.
    @usableFromInline var head = 0
    /// ``oldest``, stored.
    @usableFromInline var first: UInt64 = 0
    /// One past the newest number with a slot.
    @usableFromInline var end: UInt64 = 0
    /// ``count``, stored.
    @usableFromInline var held = 0

    /// Storage beyond this many slots is let go when the window empties (after a burst).
    @usableFromInline static var keptCapacity: Int { 4096 }

    @inlinable
    public init() {}

    /// The oldest number held (when any is): every number below it is gone.
    @inlinable
    public var oldest: UInt64 { first }

    /// How many values are held.
    @inlinable
    public var count: Int { held }

    /// Slots in the storage (for tests of its growth and shrinking).
    @inlinable
    public var capacity: Int { slots.count }

    /// Whether nothing is held.
    @inlinable
    public var isEmpty: Bool { held == 0 }

    /// The value under `number`, if it is held.
    @inlinable
    public subscript(number: UInt64) -> Value? {
        guard number >= first, number < end else { return nil }
        return slots[slot(of: number)]
    }

    /// Holds `value` under `number` (a number held already gets the new value). Numbers come in
    /// about increasing order; one below ``oldest`` moves the window's start back to it.
    @inlinable
    public mutating func insert(_ value: Value, at number: UInt64) {
        if held == 0 {
            // Nothing held: the window starts at this number, whatever came before.
            first = number
            end = number
            head = 0
        }
        if number >= end {
            let span = Int(number - first) + 1
            if span > slots.count { grow(toHold: span) }
            end = number + 1
        } else if number < first {
            let span = Int(end - number)
            if span > slots.count { grow(toHold: span) }
            // The slots before the head are free: the span fits.
            head = (head - Int(first - number)) & (slots.count - 1)
            first = number
        }
        let index = slot(of: number)
        if slots[index] == nil { held += 1 }
        slots[index] = value
    }

    /// Changes the value under `number` in place; false when nothing is held there.
    @inlinable
    @discardableResult
    public mutating func update(at number: UInt64, _ change: (inout Value) -> Void) -> Bool {
        guard number >= first, number < end else { return false }
        let index = slot(of: number)
        guard slots[index] != nil else { return false }
        change(&slots[index]!)
        return true
    }

    /// Takes the value under `number` out, if one is held.
    @inlinable
    @discardableResult
    public mutating func removeValue(at number: UInt64) -> Value? {
        guard number >= first, number < end else { return nil }
        let index = slot(of: number)
        guard let value = slots[index] else { return nil }
        slots[index] = nil
        held -= 1
        if held == 0 {
            emptied()
        } else if number == first {
            // The oldest went: the window starts at the next number still held.
            repeat {
                first += 1
                head = (head + 1) & (slots.count - 1)
            } while slots[head] == nil
            // A long-held value that went leaves storage for its whole span: halved while a quarter
            // of it would do, so one stall does not keep it for the life of the table.
            if slots.count > Self.keptCapacity, Int(end - first) * 4 <= slots.count { relayout(capacity: slots.count / 2) }
        }
        return value
    }

    /// Every value held, oldest first, leaving the window empty.
    @inlinable
    public mutating func removeAll() -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(held)
        for number in first..<end {
            if let value = slots[slot(of: number)] { values.append(value) }
        }
        slots = []
        held = 0
        emptied()
        return values
    }

    /// The numbers held and their values, oldest first.
    @inlinable
    public var elements: [(number: UInt64, value: Value)] {
        guard held > 0 else { return [] }
        return (first..<end).compactMap { number in slots[slot(of: number)].map { (number, $0) } }
    }

    @inlinable
    func slot(of number: UInt64) -> Int {
        (head + Int(number - first)) & (slots.count - 1)
    }

    /// The span grew past the storage: laid out again in twice the room (or more).
    @inlinable
    mutating func grow(toHold span: Int) {
        var capacity = max(slots.count, 16)
        while capacity < span { capacity *= 2 }
        relayout(capacity: capacity)
    }

    /// The held span laid out again from slot 0 in `capacity` slots (a power of two that holds it).
    @inlinable
    mutating func relayout(capacity: Int) {
        var moved = ContiguousArray<Value?>(repeating: nil, count: capacity)
        if !slots.isEmpty {
            for offset in 0..<Int(end - first) {
                moved[offset] = slots[(head + offset) & (slots.count - 1)]
            }
        }
        slots = moved
        head = 0
    }

    /// Nothing is held: the next insert starts the window again; storage a burst left is let go.
    @inlinable
    mutating func emptied() {
        first = end
        head = 0
        if slots.count > Self.keptCapacity { slots = [] }
    }
}
