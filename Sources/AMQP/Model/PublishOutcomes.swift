/// Each message's outcome in a publish batch, in order, kept as the batch's size and the outcomes that
/// are not `confirmed`. A job's batch is usually its one result, confirmed: an array of outcomes, made
/// when the batch was asked for, was an allocation and about 800 instructions a job (callgrind).
struct PublishOutcomes: Sendable, Hashable, ExpressibleByArrayLiteral {
    typealias Outcome = Result<AMQPPublishOutcome, AMQPError>

    /// How many messages.
    let count: Int
    /// The outcomes other than `confirmed`, by message; empty (no storage) while every one is.
    private var exceptions: [Int: Outcome] = [:]

    /// `count` messages, each taken as confirmed until told otherwise.
    init(count: Int) {
        self.count = count
    }

    init(_ outcomes: [Outcome]) {
        count = outcomes.count
        for (index, outcome) in outcomes.enumerated() { self[index] = outcome }
    }

    init(arrayLiteral outcomes: Outcome...) {
        self.init(outcomes)
    }

    /// Whether every message was confirmed.
    var allConfirmed: Bool { exceptions.isEmpty }

    subscript(index: Int) -> Outcome {
        get { exceptions[index] ?? .success(.confirmed) }
        set { exceptions[index] = newValue == .success(.confirmed) ? nil : newValue }
    }

    /// Every outcome, in order.
    var all: [Outcome] { (0..<count).map { self[$0] } }
}
