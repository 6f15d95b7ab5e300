internal import Logging
#if canImport(Glibc)
internal import Glibc
#endif

/// The connection thread's state and loop: the only code that touches rabbitmq-c.
///
/// Each turn of the loop runs the queued commands, reads every frame that is ready, reconnects or restarts
/// the consumer when due, then sleeps in `poll()` on the socket and the wake-up pipe for at most
/// ``pollInterval``, so rabbitmq-c gets a call (and sends or checks heartbeats) well within heartbeat/2.
/// Not `Sendable`: created on the connection thread and confined to it; continuations carry results out.
final class ConnectionDriver {
    /// Upper bound of one `poll()`; far below any heartbeat/2 a broker accepts (heartbeats are whole seconds).
    static let pollInterval: Duration = .milliseconds(100)
    /// Frames handled per turn before commands get their chance again.
    static let framesPerTurn = 512

    let options: AMQPClientOptions
    let logger: Logger
    let mailbox: Mailbox
    let counters: ClientCounters
    let clock = ContinuousClock()
    var random = SystemRandomNumberGenerator()

    /// The live connection; nil between a failure and the next successful reconnect.
    var connection: AMQPConnection?
    var confirms = PublishConfirms<CheckedContinuation<AMQPPublishOutcome, any Error>>()
    var assembler = ContentAssembler()
    var consumer: ConsumerRegistration?
    var reconnectBackoff: ReconnectBackoff
    var consumerBackoff: ReconnectBackoff
    var nextReconnect: ContinuousClock.Instant?
    var nextConsumerAttempt: ContinuousClock.Instant?
    /// The endpoint of the current connection, or the next to try.
    var endpointIndex = 0
    var closing: Closing?
    var finished = false
    /// The last turn stopped at ``framesPerTurn`` with input possibly left, so the next poll must not sleep.
    var moreInputLikely = false
    /// The delivery stream's reader went away; the consumer is cancelled at the end of the turn.
    var consumerAbandoned = false

    /// A `close()` in progress: waiting for confirms until the deadline.
    struct Closing {
        var deadline: ContinuousClock.Instant
        var waiters: [CheckedContinuation<Void, Never>]
    }

    init(options: AMQPClientOptions, logger: Logger, mailbox: Mailbox, counters: ClientCounters) {
        self.options = options
        self.logger = logger
        self.mailbox = mailbox
        self.counters = counters
        reconnectBackoff = ReconnectBackoff(initial: options.initialReconnectDelay, maximum: options.maximumReconnectDelay)
        consumerBackoff = reconnectBackoff
    }

    /// The thread's body: the first round of connecting (reported to `started`), then the loop until closed.
    func run(started: CheckedContinuation<Void, any Error>) {
        do {
            try connectFirstRound()
        } catch {
            let leftovers = mailbox.finishStart(succeeded: false)
            started.resume(throwing: error)
            for command in leftovers { command.fail(AMQPError(.notConnected, operation: command.operation, message: "connect() failed: \(error.message)")) }
            return
        }
        _ = mailbox.finishStart(succeeded: true)
        started.resume()
        while !finished {
            turn()
        }
    }

    private func turn() {
        let commands = mailbox.take()
        // rabbitmq-c writes each frame with its own send(); corking the socket for the batch turns a
        // turn's publishes and acks into a few full segments instead of one small packet per frame.
        let corked = commands.count > 1 ? connection?.cork() : nil
        for command in commands {
            execute(command)
        }
        if let corked { connection?.uncork(corked) }
        if connection != nil {
            pumpFrames()
            if consumerAbandoned {
                consumerAbandoned = false
                stopConsuming()
            }
        } else if closing == nil, let due = nextReconnect, clock.now >= due {
            reconnect()
        }
        if let due = nextConsumerAttempt, clock.now >= due {
            retryConsumer()
        }
        if closing != nil {
            progressClose()
        }
        if !finished {
            waitForActivity()
        }
    }

    /// Sleeps until the socket or the wake-up pipe is readable, or the next timer is due.
    private func waitForActivity() {
        var timeout = Self.pollInterval
        if moreInputLikely || connection?.hasBufferedInput == true { timeout = .zero }
        let now = clock.now
        for due in [connection == nil ? nextReconnect : nil, nextConsumerAttempt, closing?.deadline].compactMap({ $0 }) {
            timeout = min(timeout, max(.zero, due - now))
        }
        var descriptors = [pollfd(fd: mailbox.wakeup.readDescriptor, events: Int16(POLLIN), revents: 0)]
        if let socket = connection?.socketDescriptor, socket >= 0 {
            descriptors.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0))
        }
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        _ = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
    }
}
