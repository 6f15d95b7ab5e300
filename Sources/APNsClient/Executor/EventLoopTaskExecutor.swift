public import NIOCore

/// Runs tasks on one NIO event loop: a task that prefers it (`withTaskExecutorPreference`, or
/// `addTask(executorPreference:)`) and sends through a connection on the same loop hands its request
/// to the connection and is resumed by it with no thread hop and no wake-up of another thread.
public final class EventLoopTaskExecutor: TaskExecutor {
    /// The loop jobs run on.
    public let eventLoop: any EventLoop

    /// An executor whose jobs run on `eventLoop`.
    public init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Runs `job` as the loop's next task.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
