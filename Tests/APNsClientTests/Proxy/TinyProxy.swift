import Foundation
import TestSupport

/// Debian's `tinyproxy` as a child process on 127.0.0.1: a real HTTP proxy for the CONNECT tests,
/// optionally with basic authentication or refusing every tunnel (a default-deny filter: 403).
final class TinyProxy {
    let port: Int
    private let process = Process()
    private let folder: URL
    private let log: URL

    init(user: String? = nil, password: String? = nil, refuseAll: Bool = false) async throws {
        port = FreePort.pick()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tinyproxy-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        log = folder.appendingPathComponent("stderr.log")
        var lines = [
            "Port \(port)", "Listen 127.0.0.1", "Timeout 30", "MaxClients 50", "LogLevel Connect", "Allow 127.0.0.1",
            // It drops root for this user; without a ConnectPort line every port may be tunnelled to.
            "User nobody", "Group nogroup",
        ]
        if let user, let password { lines.append("BasicAuth \(user) \(password)") }
        if refuseAll {
            let filter = folder.appendingPathComponent("filter")
            try Data("^nothing-matches-this$\n".utf8).write(to: filter)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: filter.path)
            lines += ["FilterDefaultDeny Yes", "Filter \"\(filter.path)\""]
        }
        let configuration = folder.appendingPathComponent("tinyproxy.conf")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: configuration)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: configuration.path)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tinyproxy")
        process.arguments = ["-d", "-c", configuration.path]
        process.standardOutput = FileHandle(forWritingAtPath: log.path)
        process.standardError = FileHandle(forWritingAtPath: log.path)
        try process.run()
        // Ready once it accepts a connection.
        do {
            try await process.waitUntilServing(
                "tinyproxy accepts on port \(port)", timeout: .seconds(10),
                probe: "/usr/bin/curl", ["-s", "-o", "/dev/null", "--max-time", "1", "http://127.0.0.1:\(port)/"])
        } catch {
            let log = output
            stop()
            throw ProxyTestError("tinyproxy did not start (\(error)): \(log)")
        }
    }

    /// What tinyproxy logged (it logs each CONNECT).
    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// SIGKILL: a child of the test process may inherit a blocked SIGTERM, and tinyproxy then keeps running.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A proxy that misbehaves (`bad_proxy.py`): `stall` accepts and never answers; `close` answers 200
/// and closes the tunnel as soon as the client sends anything through it.
final class BadProxy {
    let port: Int
    private let process = Process()

    init(mode: String) async throws {
        port = FreePort.pick()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("bad_proxy.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, mode, String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try await process.waitUntilServing(
            "bad_proxy.py \(mode) accepts on port \(port)", timeout: .seconds(10), probe: "/bin/bash", ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(port)"])
    }

    /// SIGKILL, as for tinyproxy: a child of the test process may have SIGTERM blocked.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

struct ProxyTestError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
