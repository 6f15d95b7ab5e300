/// Finds the raw bytes of one member's value in a JSON object, so a payload goes to APNs byte for byte
/// as the producer wrote it (re-encoding would reorder keys and reformat numbers).
///
/// The caller has already parsed the document, so the text is known to be valid JSON.
enum JSONMemberSpan {
    /// The byte range of the value of top-level member `name`, or `nil` when absent. A repeated key
    /// takes its last value, as JSON parsers do.
    static func value(of name: String, in json: [UInt8]) -> Range<Int>? {
        var index = skipWhitespace(json, 0)
        guard index < json.count, json[index] == UInt8(ascii: "{") else { return nil }
        index = skipWhitespace(json, index + 1)
        var found: Range<Int>?
        while index < json.count, json[index] == UInt8(ascii: "\"") {
            let keyEnd = endOfString(json, index)
            // Keys with escapes never equal a plain name, so comparing the raw bytes is enough.
            let key = String(decoding: json[(index + 1)..<(keyEnd - 1)], as: UTF8.self)
            let valueStart = skipWhitespace(json, skipWhitespace(json, keyEnd) + 1)  // past the colon
            let valueEnd = endOfValue(json, valueStart)
            if key == name { found = valueStart..<valueEnd }
            index = skipWhitespace(json, valueEnd)
            guard index < json.count, json[index] == UInt8(ascii: ",") else { break }
            index = skipWhitespace(json, index + 1)
        }
        return found
    }

    private static func skipWhitespace(_ json: [UInt8], _ start: Int) -> Int {
        var index = start
        while index < json.count, [0x20, 0x09, 0x0A, 0x0D].contains(json[index]) { index += 1 }
        return index
    }

    /// `start` is at an opening quote; returns the index after the closing quote.
    private static func endOfString(_ json: [UInt8], _ start: Int) -> Int {
        var index = start + 1
        while index < json.count, json[index] != UInt8(ascii: "\"") {
            index += json[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return index + 1
    }

    private static func endOfValue(_ json: [UInt8], _ start: Int) -> Int {
        guard start < json.count else { return start }
        switch json[start] {
        case UInt8(ascii: "\""):
            return endOfString(json, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < json.count {
                switch json[index] {
                case UInt8(ascii: "\""): index = endOfString(json, index); continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return index
        default:
            var index = start
            while index < json.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(json[index]) {
                index += 1
            }
            return index
        }
    }
}
