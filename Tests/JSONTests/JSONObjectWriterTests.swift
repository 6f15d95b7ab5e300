import JSON
import Testing

@Suite("JSON objects written field by field")
struct JSONObjectWriterTests {
    @Test("integers in decimal exactly as `description` writes them, the extremes included", arguments: [
        0, 7, 9, 10, 99, 100, 200, 1_764_300_000_123, -1, -10, -987_654_321, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1,
    ] as [Int64])
    func integers(value: Int64) {
        var writer = JSONObjectWriter(capacity: 64)
        writer.field("n", value)
        #expect(String(decoding: writer.finish(), as: UTF8.self) == #"{"n":\#(value)}"#)
    }

    @Test("an Int writes as the same Int64 would, and nil leaves the field out")
    func intAndNil() {
        var writer = JSONObjectWriter(capacity: 64)
        writer.field("attempts", 3 as Int)
        writer.field("absent", nil as Int?)
        writer.field("http_status", 410 as Int?)
        writer.field("timestamp", nil as Int64?)
        #expect(String(decoding: writer.finish(), as: UTF8.self) == #"{"attempts":3,"http_status":410}"#)
    }
}
