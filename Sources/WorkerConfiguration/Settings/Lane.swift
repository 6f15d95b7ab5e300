/// Which line a job waits in. Urgent jobs (one-time passcodes, calls) are consumed in a window of their
/// own and started ahead of bulk ones at every stage; a job published with no lane is bulk, as every
/// job was before lanes. Not APNs' `priority` header, which says how the device treats the push.
public enum Lane: String, Sendable, Hashable, CaseIterable {
    case urgent
    case bulk
}
