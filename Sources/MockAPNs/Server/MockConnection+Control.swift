import APNsCore
import Foundation
import HTTP2
import Transport

/// The control paths under `/_mock/`, so a mock running as its own process can be steered and read:
/// `GET /_mock/stats`, `POST /_mock/faults` (a ``MockFaults`` JSON), `POST /_mock/reset`,
/// `POST /_mock/clock` (`{"advanceSeconds": N}`, when the server runs on a manual clock).
extension MockConnection {
    func answerControl(_ request: MockRequest, path: String, on streamID: Int32) {
        let (status, body) = control(request, path: path)
        try? handler.session?.submitResponse(
            streamID: streamID,
            headers: [HTTP2Header(":status", String(status)), HTTP2Header("content-type", "application/json")],
            body: body
        )
        handler.scheduleFlush()
    }

    private func control(_ request: MockRequest, path: String) -> (Int, [UInt8]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        switch (request.method, path) {
        case ("GET", "/_mock/stats"):
            return (200, (try? Array(encoder.encode(server.recorder.snapshot))) ?? [])
        case ("GET", "/_mock/faults"):
            return (200, (try? Array(encoder.encode(server.faults))) ?? [])
        case ("POST", "/_mock/faults"):
            guard let faults = try? JSONDecoder().decode(MockFaults.self, from: Data(request.body)) else {
                return (400, Array(#"{"error":"body is not a MockFaults JSON object"}"#.utf8))
            }
            server.setFaults(faults)
            return (200, Array(request.body))
        case ("POST", "/_mock/reset"):
            server.recorder.reset()
            server.setFaults(MockFaults())
            return (200, Array("{}".utf8))
        case ("POST", "/_mock/clock"):
            struct Advance: Decodable { let advanceSeconds: Double }
            guard let clock = server.configuration.clock as? ManualWallClock,
                let advance = try? JSONDecoder().decode(Advance.self, from: Data(request.body))
            else { return (400, Array(#"{"error":"the server does not run on a manual clock, or the body is not {\"advanceSeconds\":N}"}"#.utf8)) }
            clock.advance(by: advance.advanceSeconds)
            return (200, Array("{}".utf8))
        default:
            return (404, Array(#"{"error":"unknown control path"}"#.utf8))
        }
    }
}
