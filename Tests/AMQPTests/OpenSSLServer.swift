import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// `openssl s_server` on a free loopback port with the test-only server certificate: a TLS peer that
/// completes the handshake and then says nothing, so the AMQP login after it times out.
final class OpenSSLServer {
    static let executable = "/usr/bin/openssl"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let port: Int
    private let process = Process()
    /// Held open: s_server shuts down when its standard input reaches end of file.
    private let input = Pipe()

    /// `requireClientCertificate` makes the server demand a certificate signed by the test CA;
    /// `certificate` names the fixture it presents (`server`: localhost and 127.0.0.1).
    init(requireClientCertificate: Bool = false, certificate: String = "server") async throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", Fixtures.path("tls/\(certificate).pem"), "-key", Fixtures.path("tls/\(certificate).key")]
            + (requireClientCertificate ? ["-Verify", "1", "-CAfile", Fixtures.path("tls/ca.pem")] : [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        // Read on a Dispatch thread: the suite's tests start their servers at once, and blocking reads
        // would hold both threads of the cooperative pool (one per core here) until each server listened.
        let (port, text) = await withCheckedContinuation { (continuation: CheckedContinuation<(Int?, String), Never>) in
            DispatchQueue.global().async {
                continuation.resume(returning: Self.readPort(from: output.fileHandleForReading))
            }
        }
        guard let port else {
            kill(process.processIdentifier, SIGKILL)
            await process.exited()
            throw TestFailure("openssl s_server did not start: \(text)")
        }
        self.port = port
    }

    /// Reads until s_server prints "ACCEPT 127.0.0.1:PORT" (it listens then) or its output ends.
    private static func readPort(from output: FileHandle) -> (Int?, String) {
        var text = ""
        while case let data = output.availableData, !data.isEmpty {
            text += String(decoding: data, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }), let port = line.split(separator: ":").last.flatMap({ Int($0) }) {
                return (port, text)
            }
        }
        return (nil, text)
    }

    /// SIGKILL: the test process may hand its children an ignored SIGTERM.
    private func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}
