import Foundation

/// A TCP relay on 127.0.0.1 in front of a broker (a Python child process): a broker that "comes up"
/// when the relay starts, or, with `holding`, one that stops answering at a chosen step of the
/// protocol, so a test can act while a client is inside that step.
public final class BrokerRelay {
    /// An AMQP 0-9-1 method, by its class and method numbers, that the relay holds the client at.
    public struct Method: Sendable {
        public let classID: Int
        public let methodID: Int

        /// `exchange.declare`: the first thing a client declaring a topology sends.
        public static let exchangeDeclare = Method(classID: 40, methodID: 10)
    }

    private let process: Process
    /// Created by the relay once it holds a client: polled, not read from a pipe, so that waiting for
    /// it needs no reader thread of Foundation's.
    private let heldMarker: String
    /// Created by the relay when a held client sends `connection.close`.
    private var closedMarker: String { heldMarker + ".closed" }

    /// Listens on `port` and forwards every connection to the broker on `upstream`. With `holding`,
    /// the first client frame carrying that method, and everything the client sends after it but
    /// `connection.close`, is kept back (the broker never sees it), and ``waitUntilHeld()`` returns.
    public init(port: Int, upstream: Int, holding: Method? = nil) throws {
        try TestTier.requireIO("a broker relay")
        heldMarker = FileManager.default.temporaryDirectory.appendingPathComponent("broker-relay-\(port)-\(UUID().uuidString).held").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.script, String(port), String(upstream), holding.map { "\($0.classID):\($0.methodID)" } ?? "-", heldMarker]
        let output = Pipe()
        process.standardOutput = output
        // Not the test's own streams: a child holding them open keeps `swift test` waiting after the end.
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "ready\n": listening. A relay that died first (its port taken meanwhile) gives less.
        guard let ready = try output.fileHandleForReading.read(upToCount: 6), ready.elementsEqual("ready\n".utf8) else {
            kill(process.processIdentifier, SIGKILL)
            throw NotListening(port: port)
        }
    }

    /// The relay could not listen on its port.
    public struct NotListening: Error, CustomStringConvertible {
        public let port: Int
        public var description: String { "the broker relay could not listen on 127.0.0.1:\(port)" }
    }

    deinit {
        // SIGKILL: a child of the test runner may inherit a signal mask that blocks SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        try? FileManager.default.removeItem(atPath: heldMarker)
        try? FileManager.default.removeItem(atPath: closedMarker)
    }

    /// Whether a held client then sent `connection.close` (which the relay lets through, so the broker
    /// answers it): it closed its connection politely instead of giving up on the held call.
    public var heldClientClosed: Bool { FileManager.default.fileExists(atPath: closedMarker) }

    /// Returns once a client sent the held method.
    public func waitUntilHeld() async throws {
        try await Condition.wait("a client sending the held method") { FileManager.default.fileExists(atPath: heldMarker) }
    }

    /// Client bytes are read frame by frame (after the 8-byte protocol header) so that the held method
    /// is recognised whatever the reads' boundaries: type (1), channel (2), size (4), payload, 0xCE;
    /// a method frame (type 1) starts its payload with the class and method numbers.
    private static let script = """
        import asyncio, struct, sys
        port, upstream, hold, marker = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
        held = None if hold == '-' else tuple(int(n) for n in hold.split(':'))
        async def broker_to_client(reader, writer):
            try:
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            finally:
                writer.close()
        async def client_to_broker(reader, writer):
            try:
                writer.write(await reader.readexactly(8))
                holding = False
                while True:
                    header = await reader.readexactly(7)
                    kind, _, size = struct.unpack('>BHI', header)
                    rest = await reader.readexactly(size + 1)
                    method = struct.unpack('>HH', rest[:4]) if kind == 1 else None
                    if held and method == held:
                        open(marker, 'w').close()
                        holding = True
                    if holding and method == (10, 50):
                        open(marker + '.closed', 'w').close()  # connection.close: let it through
                    elif holding:
                        continue
                    writer.write(header + rest)
                    await writer.drain()
            except (asyncio.IncompleteReadError, ConnectionError):
                pass
            finally:
                writer.close()
        async def handle(reader, writer):
            try:
                upstream_reader, upstream_writer = await asyncio.open_connection('127.0.0.1', upstream)
            except OSError:
                writer.close()  # no broker behind: the client sees its connection closed, not a hang
                return
            await asyncio.gather(client_to_broker(reader, upstream_writer), broker_to_client(upstream_reader, writer))
        async def main():
            server = await asyncio.start_server(handle, '127.0.0.1', port)
            print('ready', flush=True)
            async with server:
                await server.serve_forever()
        asyncio.run(main())
        """
}
