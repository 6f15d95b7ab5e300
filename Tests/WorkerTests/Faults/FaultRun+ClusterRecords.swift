import Foundation
import TestSupport

/// What the cluster's metadata says of a queue, read and rewritten through `rabbitmqctl` on a node that
/// is up. A RabbitMQ 3.10 channel takes a quorum queue's leader from this record when it first
/// publishes to the queue; the record names the new leader only once that leader has written it.
extension FaultRun {
    /// `scripts/rabbitmq-cluster.sh ctl NODE ARGUMENTS…`; its standard output.
    static func clusterControl(node: String, _ arguments: [String]) throws -> String {
        let run = try ProcessRun.blocking("/bin/bash", [clusterScriptPath, "ctl", node] + arguments)
        guard run.status == 0 else { throw HarnessError("rabbitmqctl \(arguments.prefix(2).joined(separator: " ")) on node \(node) exited with \(run.status): \(run.output.suffix(500))") }
        return run.output
    }

    /// The node the record of `queue` names as its leader, as node `node` sees it.
    func recordedLeader(of queue: String, askingNode node: String) throws -> String? {
        let listing = try Self.clusterControl(node: node, ["-q", "list_queues", "name", "leader"])
        for row in listing.split(separator: "\n") {
            let columns = row.split(separator: "\t").map(String.init)
            if columns.count == 2, columns[0] == queue { return columns[1] }
        }
        return nil
    }

    /// Makes the record of `queue` name `leader` (a node name), as a new leader does when it takes
    /// over; with a node that is down, the record a channel meets before that happens.
    /// `thenClose` names connections to close in the same call: every one of that name (a worker has
    /// one per shard).
    func setRecordedLeader(of queue: String, to leader: String, askingNode node: String, thenClose connection: String? = nil) async throws {
        let prefix = """
            QN = rabbit_misc:r(<<"/">>, queue, <<"\(queue)">>), {ok, Q} = rabbit_amqqueue:lookup(QN), {Name, _} = amqqueue:get_pid(Q), \
            Set = fun (Q1) -> amqqueue:set_pid(Q1, {Name, '\(leader)'}) end,
            """
        // 3.10 updates its Mnesia record inside a transaction; 4.x's update chooses its store (Mnesia or
        // Khepri) itself.
        var update = FaultCatalog.brokerVersion == "3.10"
            ? "rabbit_misc:execute_mnesia_transaction(fun () -> rabbit_amqqueue:update(QN, Set) end),"
            : "rabbit_amqqueue:update(QN, Set),"
        // In the same call, so the new leader's tick (every few seconds) cannot put the record right
        // between the two: the client's next channel then meets the record as set.
        if let connection {
            for pid in try await RabbitMQControl.connectionPIDs(named: connection, control: { try Self.clusterControl(node: node, $0) }) {
                update += " rabbit_networking:close_connection(rabbit_misc:string_to_pid(<<\"\(pid)\">>), \"forced by a test\"),"
            }
        }
        _ = try Self.clusterControl(node: node, ["eval", prefix + " " + update + " ok."])
    }
}
