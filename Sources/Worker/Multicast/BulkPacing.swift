/// Runs ``BulkPacer`` for `permits`: while bulk multicast senders hold permits or wait for one, measures
/// how late 10 ms sleeps wake up, ten to a window, takes the `urgent` jobs' latencies recorded
/// meanwhile, and sets the bulk limit after each window. Idle, it sleeps a window at a time and
/// measures nothing. Returns when cancelled.
func paceBulkSenders(of permits: SendPermits, urgent: UrgentLatencies, onLimit: @Sendable (Int) -> Void) async {
    var pacer = BulkPacer(ceiling: permits.capacity)
    permits.setBulkLimit(pacer.limit)
    onLimit(pacer.limit)
    let clock = ContinuousClock()
    let probe = Duration.milliseconds(10)
    let probesPerWindow = 10
    while !Task.isCancelled {
        let use = permits.bulkUse
        guard use.inUse > 0 || use.saturated else {
            urgent.discard()
            guard (try? await Task.sleep(for: probe * probesPerWindow, clock: clock)) != nil else { return }
            continue
        }
        var lateness: [Duration] = []
        lateness.reserveCapacity(probesPerWindow)
        var saturated = false
        for _ in 0..<probesPerWindow {
            let due = clock.now + probe
            guard (try? await Task.sleep(until: due, clock: clock)) != nil else { return }
            lateness.append(clock.now - due)
            saturated = saturated || permits.bulkUse.saturated
        }
        let before = pacer.limit
        let limit = pacer.windowEnded(lateness: lateness, saturated: saturated, urgent: urgent.take(atLeast: BulkPacer.urgentSamples))
        if limit != before {
            permits.setBulkLimit(limit)
            onLimit(limit)
        }
    }
}
