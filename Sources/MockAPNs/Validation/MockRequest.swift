public import HTTP2

/// One complete request as the mock server received it.
public struct MockRequest: Sendable {
    public var headers: [HTTP2Header]
    public var body: [UInt8]

    public init(headers: [HTTP2Header], body: [UInt8]) {
        self.headers = headers
        self.body = body
    }

    public var method: String? { headers.value(of: ":method") }
    public var path: String? { headers.value(of: ":path") }
}
