/// Values held under numbers that are handed out in increasing order and mostly finished in about that
/// order: publish sequence numbers, delivery tags, the driver's publish and batch ids. A ring of slots
/// indexed by `number - oldest`, in place of a `Dictionary`, which hashed each number on every insert,
/// lookup and removal: about fourteen times per job across the AMQP client's tables (callgrind).
///
/// Its storage follows the span from the oldest number held to the newest, not the count held: one
/// value held long while thousands pass keeps a slot for each of them (a few bytes each), and the
/// storage is let go once the window empties. Numbers may be skipped (ids another table took).
struct NumberedWindow<Value> {
    /// Power-of-two capacity, so a number's slot is a mask away.
    private var slots: ContiguousArray<Value?> = []
    /// The slot of ``oldest``.
    private var head = 0
    /// The oldest number held (when any is): every number below it is gone.
    private(set) var oldest: UInt64 = 0
    /// One past the newest number with a slot.
    private var end: UInt64 = 0
    /// How many values are held.
    private(set) var count = 0

    /// Storage beyond this many slots is let go when the window empties (after a burst).
    private static var keptCapacity: Int { 4096 }

    init() {}

    /// Whether nothing is held.
    var isEmpty: Bool { count == 0 }

    /// The value under `number`, if it is held.
    subscript(number: UInt64) -> Value? {
        guard number >= oldest, number < end else { return nil }
        return slots[slot(of: number)]
    }

    /// Holds `value` under `number` (a number held already gets the new value). Numbers come in
    /// about increasing order; one below ``oldest`` moves the window's start back to it.
    mutating func insert(_ value: Value, at number: UInt64) {
        if count == 0 {
            // Nothing held: the window starts at this number, whatever came before.
            oldest = number
            end = number
            head = 0
        }
        if number >= end {
            let span = Int(number - oldest) + 1
            if span > slots.count { grow(toHold: span) }
            end = number + 1
        } else if number < oldest {
            let span = Int(end - number)
            if span > slots.count { grow(toHold: span) }
            // The slots before the head are free: the span fits.
            head = (head - Int(oldest - number)) & (slots.count - 1)
            oldest = number
        }
        let index = slot(of: number)
        if slots[index] == nil { count += 1 }
        slots[index] = value
    }

    /// Changes the value under `number` in place; false when nothing is held there.
    @discardableResult
    mutating func update(at number: UInt64, _ change: (inout Value) -> Void) -> Bool {
        guard number >= oldest, number < end else { return false }
        let index = slot(of: number)
        guard slots[index] != nil else { return false }
        change(&slots[index]!)
        return true
    }

    /// Takes the value under `number` out, if one is held.
    @discardableResult
    mutating func removeValue(at number: UInt64) -> Value? {
        guard number >= oldest, number < end else { return nil }
        let index = slot(of: number)
        guard let value = slots[index] else { return nil }
        slots[index] = nil
        count -= 1
        if count == 0 {
            emptied()
        } else if number == oldest {
            // The oldest went: the window starts at the next number still held.
            repeat {
                oldest += 1
                head = (head + 1) & (slots.count - 1)
            } while slots[head] == nil
        }
        return value
    }

    /// Every value held, oldest first, leaving the window empty.
    mutating func removeAll() -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(count)
        for number in oldest..<end {
            if let value = slots[slot(of: number)] { values.append(value) }
        }
        slots = []
        count = 0
        emptied()
        return values
    }

    /// The numbers held and their values, oldest first.
    var elements: [(number: UInt64, value: Value)] {
        guard count > 0 else { return [] }
        return (oldest..<end).compactMap { number in slots[slot(of: number)].map { (number, $0) } }
    }

    private func slot(of number: UInt64) -> Int {
        (head + Int(number - oldest)) & (slots.count - 1)
    }

    /// The span grew past the storage: the held span is laid out again from slot 0, in twice the room.
    private mutating func grow(toHold span: Int) {
        var capacity = max(slots.count, 16)
        while capacity < span { capacity *= 2 }
        var larger = ContiguousArray<Value?>(repeating: nil, count: capacity)
        if !slots.isEmpty {
            for offset in 0..<Int(end - oldest) {
                larger[offset] = slots[(head + offset) & (slots.count - 1)]
            }
        }
        slots = larger
        head = 0
    }

    /// Nothing is held: the next insert starts the window again; storage a burst left is let go.
    private mutating func emptied() {
        oldest = end
        head = 0
        if slots.count > Self.keptCapacity { slots = [] }
    }
}
