import JSON
import Testing

@Suite("JSON values written back out")
struct JSONValueEncodingTests {
    static let document: JSONValue = [
        "name": "apns.jobs", "durable": true, "arguments": ["x-queue-type": "quorum", "x-delivery-limit": 50],
        "bindings": [], "weights": [0.5, 2], "empty": [:],
    ]

    @Test("compact: keys sorted, no spaces, literals as their kinds")
    func compact() {
        let text = String(decoding: Self.document.encoded(), as: UTF8.self)
        #expect(text == #"{"arguments":{"x-delivery-limit":50,"x-queue-type":"quorum"},"bindings":[],"durable":true,"empty":{},"name":"apns.jobs","weights":[0.5,2]}"#)
    }

    @Test("for reading: a member or element a line, two spaces a level, empty containers kept short; reads back equal")
    func forReading() throws {
        let bytes = Self.document.encodedForReading()
        #expect(String(decoding: bytes, as: UTF8.self) == """
            {
              "arguments": {
                "x-delivery-limit": 50,
                "x-queue-type": "quorum"
              },
              "bindings": [],
              "durable": true,
              "empty": {},
              "name": "apns.jobs",
              "weights": [
                0.5,
                2
              ]
            }
            """)
        #expect(try JSONReader.parse(bytes) == Self.document)
    }

    @Test("optional fields: nil stays out of an object")
    func optionals() {
        var object: [String: JSONValue] = ["status": "delivered"]
        object["apns_id"] = JSONValue(nil as String?)
        object["timestamp"] = JSONValue(nil as Int64?)
        object["http_status"] = JSONValue(200 as Int?)
        #expect(String(decoding: JSONValue.object(object).encoded(), as: UTF8.self) == #"{"http_status":200,"status":"delivered"}"#)
    }
}
