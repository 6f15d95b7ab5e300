public import Foundation

/// Paths to the committed test-only keys and certificates under `Tests/Fixtures`.
public enum Fixtures {
    /// The `Tests/Fixtures` folder of this checkout.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The root of this checkout (scripts/, deploy/, docs/ …).
    public static let repository: URL = directory.deletingLastPathComponent().deletingLastPathComponent()

    /// The absolute path of a fixture, e.g. `path("keys/AuthKey_TESTKEY001.p8")`.
    public static func path(_ relative: String) -> String {
        directory.appendingPathComponent(relative).path
    }

    /// The text of a fixture.
    public static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }

    /// Copies a fixture to a new private temporary file with `mode`, since git does not keep file modes.
    public static func privateCopy(of relative: String, mode: Int = 0o600) throws -> String {
        try TemporaryFile.write(Data(contentsOf: URL(fileURLWithPath: path(relative))), mode: mode)
    }
}

/// Files in a per-process temporary folder.
public enum TemporaryFile {
    private static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("apns-worker-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Writes `text` to a new file with the given POSIX mode and returns its path.
    public static func write(_ text: String, mode: Int) throws -> String {
        try write(Data(text.utf8), mode: mode)
    }

    /// Writes `data` to a new file with the given POSIX mode and returns its path.
    public static func write(_ data: Data, mode: Int) throws -> String {
        let url = folder.appendingPathComponent(UUID().uuidString)
        try data.write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url.path
    }
}
