public import Dispatch
import NIOConcurrencyHelpers
public import NIOCore

/// Some of a group's event loops, handed out in turn, as a group of their own that owns none of them.
///
/// The worker gives its APNs connections every loop but its AMQP client's: the client's loop then
/// decodes and sends while APNs' answers are concluded on the others. With connections placed by the
/// shared group's `next()`, whether a connection shared the client's loop depended on start-up order;
/// when all of them did, one thread did every job's work and the other idled, and p99 at 6,000 jobs/s
/// was 27, 27 and 41 ms against 20, 20 and 29 ms kept apart (alternating runs, docs/decisions.md).
public final class EventLoopSubset: EventLoopGroup, Sendable {
    private let loops: [any EventLoop]
    private let turn = NIOLockedValueBox(0)

    /// The loops of `group` other than `excluded`; all of them when that would leave none.
    public init(_ group: any EventLoopGroup, excluding excluded: any EventLoop) {
        let all = Array(group.makeIterator())
        let kept = all.filter { $0 !== excluded }
        loops = kept.isEmpty ? all : kept
    }

    public func next() -> any EventLoop {
        loops[turn.withLockedValue { turn in
            defer { turn = (turn + 1) % loops.count }
            return turn
        }]
    }

    /// The calling thread's loop when it is one of these (no hop), else the next one.
    public func any() -> any EventLoop {
        loops.first { $0.inEventLoop } ?? next()
    }

    public func makeIterator() -> EventLoopIterator {
        EventLoopIterator(loops)
    }

    /// The loops belong to the group they came from: only it shuts them down.
    public func shutdownGracefully(queue: DispatchQueue, _ callback: @escaping @Sendable ((any Error)?) -> Void) {
        queue.async { callback(EventLoopError.unsupportedOperation) }
    }
}
