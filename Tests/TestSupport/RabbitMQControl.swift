import Foundation

/// `rabbitmqctl` against the test broker (through `scripts/rabbitmq.sh ctl`), for tests that play operator.
public enum RabbitMQControl {
    /// Forces the broker to close the connection whose `connection_name` is `name`, through
    /// `control` (rabbitmqctl's arguments in, its output back): the test broker's, or a cluster node's.
    public static func forceClose(connectionNamed name: String, control: ([String]) async throws -> String = RabbitMQControl.run) async throws {
        try await forceClose(connection: try await connectionPID(named: name, control: control), control: control)
    }

    /// Closes the broker connection whose process id (from ``connectionPID(named:control:)``) is `pid`.
    public static func forceClose(connection pid: String, control: ([String]) async throws -> String = RabbitMQControl.run) async throws {
        _ = try await control(["close_connection", pid, "forced by a test"])
    }

    /// The process id (as rabbitmqctl prints it) of the first connection whose `connection_name` is
    /// `name`. A worker with several shards has one connection per shard, all named alike.
    public static func connectionPID(named name: String, control: ([String]) async throws -> String = RabbitMQControl.run) async throws -> String {
        try await connectionPIDs(named: name, control: control)[0]
    }

    /// The process ids of every connection whose `connection_name` is `name`; throws when there is none.
    public static func connectionPIDs(named name: String, control: ([String]) async throws -> String = RabbitMQControl.run) async throws -> [String] {
        let listing = try await control(["-q", "list_connections", "pid", "client_properties"])
        let pids = listing.split(separator: "\n").filter { $0.contains("\"\(name)\"") }.compactMap { $0.split(separator: "\t").first.map(String.init) }
        guard !pids.isEmpty else { throw ControlError("no broker connection named \(name) in:\n\(listing)") }
        return pids
    }

    /// A new vhost on the test broker named `prefix-<random>`, open to guest; delete it with
    /// `run(["delete_vhost", name])`.
    public static func makeVirtualHost(_ prefix: String) async throws -> String {
        let name = "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        _ = try await run(["add_vhost", name])
        _ = try await run(["set_permissions", "-p", name, "guest", ".*", ".*", ".*"])
        return name
    }

    /// Runs `scripts/rabbitmq.sh ctl ARGS…` and returns its standard output. (A rabbitmqctl run takes
    /// a second or more: never on a blocked thread of the cooperative pool.)
    public static func run(_ arguments: [String]) async throws -> String {
        let script = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/rabbitmq.sh")
        let run = try await ProcessRun.run("/bin/bash", [script.path, "ctl"] + arguments)
        guard run.status == 0 else { throw ControlError("rabbitmqctl \(arguments) exited with \(run.status)") }
        return run.output
    }

    struct ControlError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
