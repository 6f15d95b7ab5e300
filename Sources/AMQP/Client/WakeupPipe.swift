#if canImport(Glibc)
internal import Glibc
#endif

/// A self-pipe that wakes the connection thread out of `poll()` when a command is queued.
///
/// It owns both descriptors and closes them in `deinit`. `Sendable` without `@unchecked`: the descriptors
/// never change, and `write`/`read` on a pipe are safe from any thread.
final class WakeupPipe: Sendable {
    /// Polled by the connection thread.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    init() throws(AMQPError) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            throw AMQPError(.library(status: -errno), operation: "create wake-up pipe", message: String(cString: strerror(errno)))
        }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL, 0) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    /// Makes the read end readable; a full pipe already is, so a failed write needs no handling.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Empties the pipe so the next `poll()` sleeps until the next signal.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &buffer, buffer.count) > 0 {}
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }
}
