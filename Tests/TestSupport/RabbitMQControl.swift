import Foundation

/// `rabbitmqctl` against the test broker (through `scripts/rabbitmq.sh ctl`), for tests that play operator.
public enum RabbitMQControl {
    /// Forces the broker to close the connection whose `connection_name` is `name`, through
    /// `control` (rabbitmqctl's arguments in, its output back): the test broker's, or a cluster node's.
    public static func forceClose(connectionNamed name: String, control: ([String]) throws -> String = RabbitMQControl.run) throws {
        _ = try control(["close_connection", try connectionPID(named: name, control: control), "forced by a test"])
    }

    /// The process id (as rabbitmqctl prints it) of the connection whose `connection_name` is `name`.
    public static func connectionPID(named name: String, control: ([String]) throws -> String = RabbitMQControl.run) throws -> String {
        let listing = try control(["-q", "list_connections", "pid", "client_properties"])
        let pids = listing.split(separator: "\n").filter { $0.contains("\"\(name)\"") }.compactMap { $0.split(separator: "\t").first.map(String.init) }
        guard let pid = pids.first else { throw ControlError("no broker connection named \(name) in:\n\(listing)") }
        return pid
    }

    /// A new vhost on the test broker named `prefix-<random>`, open to guest; delete it with
    /// `run(["delete_vhost", name])`.
    public static func makeVirtualHost(_ prefix: String) throws -> String {
        let name = "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        _ = try run(["add_vhost", name])
        _ = try run(["set_permissions", "-p", name, "guest", ".*", ".*", ".*"])
        return name
    }

    /// Runs `scripts/rabbitmq.sh ctl ARGS…` and returns its standard output.
    public static func run(_ arguments: [String]) throws -> String {
        let script = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/rabbitmq.sh")
        let run = try ProcessRun.blocking("/bin/bash", [script.path, "ctl"] + arguments)
        guard run.status == 0 else { throw ControlError("rabbitmqctl \(arguments) exited with \(run.status)") }
        return run.output
    }

    struct ControlError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
