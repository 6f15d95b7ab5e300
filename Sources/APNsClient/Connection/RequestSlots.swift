/// The requests a connection holds, each in a numbered slot: the state machine and its actions know a
/// request by its slot number only.
///
/// A request (its payload, headers' values, the caller's callback) is stored once, when it arrives,
/// and taken out once, when its caller resumes. Carried inside the machine's actions instead, it was
/// copied (and its buffers retained and released) at every step of its way.
struct RequestSlots<Request> {
    private var entries: [Request?] = []
    /// Slots emptied and free for reuse, so the table grows to the most requests held at once.
    private var free: [Int] = []

    /// Stores `request` and returns its slot. Consumed, and ``remove(_:)`` moves it out: borrowed in
    /// and copied out, a notification's every string was retained and released twice more a job.
    mutating func insert(_ request: consuming Request) -> Int {
        if let slot = free.popLast() {
            entries[slot] = request
            return slot
        }
        entries.append(request)
        return entries.count - 1
    }

    /// The request in `slot`, which must hold one, lent to `body` in place. The slots are borrowed
    /// for the whole call: `body` must not reach ``insert(_:)`` or ``remove(_:)`` (nghttp2 queues a
    /// submitted request and calls back only when the session sends or receives, so a submit may
    /// run inside it; a flush may not).
    func withRequest<Result, Failure: Error>(in slot: Int, _ body: (borrowing Request) throws(Failure) -> Result) throws(Failure) -> Result {
        guard entries[slot] != nil else { preconditionFailure("request slot \(slot) is empty") }
        return try body(entries[slot]!)
    }

    /// Takes the request out of `slot`, which must hold one; the slot is free again.
    mutating func remove(_ slot: Int) -> Request {
        guard let request = entries[slot].take() else { preconditionFailure("request slot \(slot) is empty") }
        free.append(slot)
        return request
    }

    /// Requests held now.
    var count: Int { entries.count - free.count }
}
