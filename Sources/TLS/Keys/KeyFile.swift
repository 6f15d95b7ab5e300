public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads private-key files, refusing ones that other users could read.
public enum KeyFile {
    /// Returns the text of the key file at `path`.
    ///
    /// A signing key readable by another account has effectively leaked on a shared host, so such a
    /// file is refused (``KeyFileAccess``) unless `allowGroupOrOtherAccess` says the operator accepts it.
    public static func read(path: String, allowGroupOrOtherAccess: Bool = false) throws -> String {
        let data = try read(bytesAt: path, allowGroupOrOtherAccess: allowGroupOrOtherAccess)
        guard let text = String(data: data, encoding: .utf8) else {
            throw KeyError(.malformedKey, "key file \(path) is not text (expected a PEM file)")
        }
        return text
    }

    /// Returns the bytes of the key file at `path` (PKCS#12 bundles are binary), with the same checks.
    public static func read(bytesAt path: String, allowGroupOrOtherAccess: Bool = false) throws -> Data {
        // stat, not lstat: a Kubernetes Secret's files are symbolic links (mode 0777) to the real ones.
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw KeyError(.unreadableFile, "cannot read key file \(path): \(String(cString: strerror(errno)))")
        }
        let access = KeyFileAccess(
            mode: Int(status.st_mode & 0o777), fileGroup: status.st_gid, processGroup: getegid(),
            groupHasOtherMembers: status.st_mode & 0o040 != 0 && groupHasOtherMembers(status.st_gid)
        )
        if !allowGroupOrOtherAccess, let exposure = access.exposure {
            throw KeyError(
                .insecurePermissions,
                "key file \(path) is \(exposure) (mode \(String(access.mode, radix: 8))); run chmod 600 on it "
                    + "(in Kubernetes: the Secret volume's defaultMode 0400 and the pod's fsGroup equal to its runAsGroup), "
                    + "or allow it explicitly"
            )
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw KeyError(.unreadableFile, "cannot read key file \(path)")
        }
        return data
    }

    /// Whether an account other than this process's user has `group` as its primary group or is
    /// listed in it. Runs at load time only: getpwent walks the account database.
    private static func groupHasOtherMembers(_ group: gid_t) -> Bool {
        let me = geteuid()
        let myName = getpwuid(me).map { String(cString: $0.pointee.pw_name) }
        if let entry = getgrgid(group), var member = entry.pointee.gr_mem {
            while let name = member.pointee {
                if String(cString: name) != myName { return true }
                member += 1
            }
        }
        setpwent()
        defer { endpwent() }
        while let account = getpwent() {
            if account.pointee.pw_gid == group, account.pointee.pw_uid != me { return true }
        }
        return false
    }
}
