@testable import HTTP2

/// A client and a server session wired together in memory: bytes move only when `exchange()` says so.
final class SessionPair {
    let client: HTTP2Session
    let server: HTTP2Session
    var clientEvents: [HTTP2Event] = []
    var serverEvents: [HTTP2Event] = []

    init(serverSettings: HTTP2Settings = HTTP2Settings(maxConcurrentStreams: 100), assumedPeerMaxConcurrentStreams: UInt32 = 100) throws {
        client = try HTTP2Session(role: .client, assumedPeerMaxConcurrentStreams: assumedPeerMaxConcurrentStreams)
        server = try HTTP2Session(role: .server, settings: serverSettings)
    }

    /// Moves bytes both ways until neither side has anything to send; collects each side's events.
    func exchange() throws {
        var moved = true
        while moved {
            moved = false
            var toServer: [UInt8] = []
            try client.send { toServer += $0 }
            if !toServer.isEmpty {
                moved = true
                try toServer.withUnsafeBytes { try server.receive($0) }
            }
            var toClient: [UInt8] = []
            try server.send { toClient += $0 }
            if !toClient.isEmpty {
                moved = true
                try toClient.withUnsafeBytes { try client.receive($0) }
            }
            clientEvents += client.takeEvents()
            serverEvents += server.takeEvents()
        }
    }

    /// Requests the server has received completely.
    var requests: [(streamID: Int32, headers: [HTTP2Header], body: [UInt8])] {
        serverEvents.compactMap {
            if case .message(let id, let headers, let body) = $0 { return (id, headers, body) }
            return nil
        }
    }

    /// Responses the client has received completely, by stream.
    var responses: [Int32: (headers: [HTTP2Header], body: [UInt8])] {
        var result: [Int32: (headers: [HTTP2Header], body: [UInt8])] = [:]
        for case .message(let id, let headers, let body) in clientEvents { result[id] = (headers, body) }
        return result
    }

    /// How the client saw each stream close.
    var clientClosures: [Int32: HTTP2ErrorCode] {
        var result: [Int32: HTTP2ErrorCode] = [:]
        for case .streamClosed(let id, let code) in clientEvents { result[id] = code }
        return result
    }

    static func request(path: String = "/3/device/abcd", extra: [HTTP2Header] = []) -> [HTTP2Header] {
        [
            HTTP2Header(":method", "POST"), HTTP2Header(":scheme", "https"), HTTP2Header(":authority", "localhost"),
            HTTP2Header(":path", path, neverIndexed: true),
        ] + extra
    }
}
