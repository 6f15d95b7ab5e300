import TLS

/// A client and a server TLS session wired together in memory: no sockets.
final class TLSPair {
    let client: TLSConnection
    let server: TLSConnection

    init(client: TLSConnection, server: TLSConnection) {
        self.client = client
        self.server = server
    }

    /// Moves every pending byte from one side to the other until both are quiet.
    func pump() {
        var moved = true
        while moved {
            let forward = Self.move(from: client, to: server)
            let backward = Self.move(from: server, to: client)
            moved = forward || backward
        }
    }

    /// Runs the handshake to completion (or the first error) on both sides.
    func handshake() throws {
        for _ in 0..<10 {
            let clientDone = try client.continueHandshake()
            pump()
            let serverDone = try server.continueHandshake()
            pump()
            if clientDone && serverDone { return }
        }
        throw TLSError(.protocolFailure, "handshake did not finish")
    }

    private static func move(from source: TLSConnection, to destination: TLSConnection) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var any = false
        while source.pendingCiphertextCount > 0 {
            let count = buffer.withUnsafeMutableBytes { source.readCiphertext(into: $0) }
            buffer.withUnsafeBytes { destination.receiveCiphertext(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            any = true
        }
        return any
    }
}
