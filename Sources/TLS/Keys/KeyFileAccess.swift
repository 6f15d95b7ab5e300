/// Whether a key file's mode lets anyone but this process read it: the facts of the file and the
/// process, judged without touching the file system (the reader gathers them).
///
/// Other users reading the file is always a leak. Group read is one only if the group has another
/// member: a file whose group is this process's own group, which no other account belongs to, is read
/// by this process alone. That is how Kubernetes mounts a Secret for a pod that runs as a user
/// (`fsGroup`: owner root, group the pod's, mode 0440 whatever `defaultMode` says), and how a Debian
/// account's private group works.
struct KeyFileAccess: Equatable {
    /// The permission bits.
    var mode: Int
    var fileGroup: UInt32
    var processGroup: UInt32
    /// Whether an account other than this process's user belongs to the file's group (as its primary
    /// group or a listed member).
    var groupHasOtherMembers: Bool

    /// Why the file is readable by someone else, or nil when it is private to this process.
    var exposure: String? {
        if mode & 0o004 != 0 { return "readable by others" }
        guard mode & 0o040 != 0 else { return nil }
        if fileGroup != processGroup { return "readable by group \(fileGroup), which is not this process's group (\(processGroup))" }
        if groupHasOtherMembers { return "readable by group \(fileGroup), which other accounts belong to" }
        return nil
    }
}
