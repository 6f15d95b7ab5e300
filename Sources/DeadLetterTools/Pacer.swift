/// Spaces out work to at most `rate` a second (no limit when `nil`).
struct Pacer {
    private let interval: Duration?
    private var next = ContinuousClock.now

    init(rate: Double?) {
        interval = rate.flatMap { $0 > 0 ? .seconds(1 / $0) : nil }
    }

    mutating func wait() async {
        guard let interval else { return }
        let now = ContinuousClock.now
        if next > now { try? await Task.sleep(until: next) }
        next = max(next, now) + interval
    }
}
