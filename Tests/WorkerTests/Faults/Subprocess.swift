import Foundation

/// Short-lived helper commands (`scripts/rabbitmq.sh start`), spawned without Foundation's `Process`.
///
/// `Process` learns that a child exited when a socket the child inherited closes. `rabbitmq.sh start`
/// leaves the broker running in the background, which inherits that socket too, so `Process` would
/// wait for the broker to stop rather than the script: the script stays a zombie and `isRunning` true.
/// Here the child gets /dev/null and no other descriptor of ours, and `waitpid` tells when it exits.
enum Subprocess {
    /// Runs `arguments[0]` (an absolute path) with `arguments`, its output in `log` (discarded when
    /// nil); returns its exit status, or throws after `timeout` (the child is then killed).
    static func run(_ arguments: [String], timeout: Duration = .seconds(180), log: String? = nil) async throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of this process (sockets of the mock, the readers, `Process`'s own) may live on in
        // what the child leaves running.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for descriptor in open where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environment)
        guard spawned == 0 else { throw HarnessError("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < deadline else {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw HarnessError("\(arguments.joined(separator: " ")) did not finish within \(timeout)")
            }
            await pause(.milliseconds(100))
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}

/// Sleeps even in a cancelled task: cleanup loops (stopping processes, letting readers settle) must wait
/// for real, not spin, after a test's time limit cancelled it.
func pause(_ duration: Duration) async {
    let nanoseconds = Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { continuation.resume() }
    }
}
