/// Runs ``BulkPacer`` for `permits`: measures how late 10 ms sleeps wake up, ten to a window, while
/// bulk multicast senders hold permits, and sets the bulk limit after each window. Idle (no bulk sender
/// holds a permit or waits), it looks once per window and measures nothing. Returns when cancelled.
func paceBulkSenders(of permits: SendPermits, onLimit: @Sendable (Int) -> Void) async {
    var pacer = BulkPacer(ceiling: permits.capacity)
    permits.setBulkLimit(pacer.limit)
    onLimit(pacer.limit)
    let clock = ContinuousClock()
    let probe = Duration.milliseconds(10)
    while !Task.isCancelled {
        var lateness = Duration.zero
        var saturated = false
        var busy = false
        for _ in 0..<10 {
            let due = clock.now + probe
            guard (try? await Task.sleep(until: due, clock: clock)) != nil else { return }
            lateness = max(lateness, clock.now - due)
            let use = permits.bulkUse
            saturated = saturated || use.saturated
            busy = busy || use.inUse > 0 || use.saturated
        }
        guard busy else { continue }
        let before = pacer.limit
        let limit = pacer.windowEnded(lateness: lateness, saturated: saturated)
        if limit != before {
            permits.setBulkLimit(limit)
            onLimit(limit)
        }
    }
}
