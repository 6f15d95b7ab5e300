public import Foundation

/// Reads private-key files, refusing ones that other users could read.
public enum KeyFile {
    /// Returns the text of the key file at `path`.
    ///
    /// A signing key readable by group or others has effectively leaked on a shared host, so such a file
    /// is refused unless `allowGroupOrOtherAccess` says the operator accepts it (some secret mounts cannot
    /// set modes).
    public static func read(path: String, allowGroupOrOtherAccess: Bool = false) throws -> String {
        let data = try read(bytesAt: path, allowGroupOrOtherAccess: allowGroupOrOtherAccess)
        guard let text = String(data: data, encoding: .utf8) else {
            throw KeyError(.malformedKey, "key file \(path) is not text (expected a PEM file)")
        }
        return text
    }

    /// Returns the bytes of the key file at `path` (PKCS#12 bundles are binary), with the same checks.
    public static func read(bytesAt path: String, allowGroupOrOtherAccess: Bool = false) throws -> Data {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw KeyError(.unreadableFile, "cannot read key file \(path): \(error.localizedDescription)")
        }
        if !allowGroupOrOtherAccess, let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue,
            mode & 0o044 != 0
        {
            throw KeyError(
                .insecurePermissions,
                "key file \(path) is readable by group or others (mode \(String(mode & 0o777, radix: 8))); "
                    + "run chmod 600 on it, or allow it explicitly"
            )
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw KeyError(.unreadableFile, "cannot read key file \(path)")
        }
        return data
    }
}
