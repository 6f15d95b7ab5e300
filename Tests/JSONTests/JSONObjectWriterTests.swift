import Foundation
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

@Suite("JSON strings escaped as Foundation escapes them")
struct JSONStringEscapingTests {
    /// Bytes that must be escaped, and neighbours of the word-at-a-time check's thresholds that must not.
    static let characters: [Character] = ["\u{0}", "\u{1}", "\u{8}", "\t", "\n", "\u{1F}", "\"", "\\", " ", "!", "#", "[", "]", "\u{7F}", "é", "€"]

    @Test("a character at every position of strings of 1 to 17 bytes", arguments: characters)
    func everyPosition(character: Character) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        for length in 1...17 {
            for position in 0..<length {
                var text = String(repeating: "a", count: length)
                let index = text.index(text.startIndex, offsetBy: position)
                text.replaceSubrange(index...index, with: String(character))
                var written: [UInt8] = []
                JSONStringEscaping.append(text, to: &written)
                #expect(written == Array(try encoder.encode(text)), "\(text.debugDescription)")
            }
        }
    }
}
