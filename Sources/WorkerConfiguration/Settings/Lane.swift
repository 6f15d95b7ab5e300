/// Which line a job waits in. Urgent jobs (one-time passcodes, calls) are consumed in a window of their
/// own and started ahead of bulk ones at every stage; a job published with no lane is bulk, as every
/// job was before lanes. A team lane (``TeamLane``) is a bulk lane with a queue of its own, so its jobs
/// never stand behind another team's backlog at the broker. Not APNs' `priority` header, which says how
/// the device treats the push.
public enum Lane: Sendable, Hashable {
    case urgent
    case bulk
    /// A team's own bulk lane, by its name.
    case team(String)

    /// Whether its jobs go ahead of bulk ones (only the urgent lane's do; a team lane waits as bulk).
    public var isUrgent: Bool { self == .urgent }

    /// How logs and metrics name it: `urgent`, `bulk`, or the team lane's name.
    public var name: String {
        switch self {
        case .urgent: "urgent"
        case .bulk: "bulk"
        case .team(let name): name
        }
    }
}
