import Foundation
import JSON

/// How the strict reader's verdict on one document compares with `JSONSerialization`'s.
enum FoundationComparison: Hashable {
    /// Both accept with the same value, or both refuse.
    case agree(accepted: Bool)
    /// A difference the strict reader makes on purpose (docs/messages.md lists them), by name.
    case deliberate(String)
    /// Anything else: a bug in one of the two, described.
    case disagree(String)

    static func compare(_ document: [UInt8]) -> FoundationComparison {
        let theirs = try? JSONSerialization.jsonObject(with: Data(document), options: [.fragmentsAllowed])
        let ours: JSONValue
        do {
            ours = try JSONReader.parse(document)
        } catch {
            guard theirs != nil else { return .agree(accepted: false) }
            return deliberateDifference(error, document).map(FoundationComparison.deliberate) ?? .disagree("we refuse (\(error)), Foundation accepts")
        }
        guard let theirs else { return .disagree("we accept, Foundation refuses") }
        return same(ours, theirs) ? .agree(accepted: true) : .disagree("the values differ: \(ours) vs \(theirs)")
    }

    /// Where Foundation is lenient and the strict reader is not, by design.
    private static func deliberateDifference(_ error: JSONSyntaxError, _ document: [UInt8]) -> String? {
        switch error.problem {
        case .duplicateKey: return "duplicate key"
        case .equivalentKey: return "canonically equivalent keys in a tree"
        case .byteOrderMark: return "byte-order mark"
        case .tooDeep: return "deeper than 64"
        case .numberOutOfRange:
            // Foundation converts a value only if it keeps it: under a key that comes again, an
            // out-of-range number is dropped unread. Alone, Foundation refuses it too.
            let token = document[error.offset...].prefix { !",]} \t\n\r".utf8.contains($0) }
            let alone = try? JSONSerialization.jsonObject(with: Data(token), options: [.fragmentsAllowed])
            return alone == nil ? "out-of-range number under a repeated key" : nil
        case .unexpectedByte(UInt8(ascii: "]")), .unexpectedByte(UInt8(ascii: "}")):
            // Foundation takes a trailing comma ([1,] and {"a":1,}); RFC 8259 does not.
            let before = document[..<error.offset].last { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            return before == UInt8(ascii: ",") ? "trailing comma" : nil
        default:
            // Foundation guesses UTF-16 or UTF-32 from NUL bytes at the start; JSON here is UTF-8 only.
            return document.prefix(4).contains(0) ? "not UTF-8" : nil
        }
    }

    static func same(_ ours: JSONValue, _ theirs: Any) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case .bool(let flag): return isBoolean(theirs) && (theirs as? NSNumber)?.boolValue == flag
        case .integer(let integer): return number(theirs).map { close(Double(integer), $0) } ?? false
        case .number(let double): return number(theirs).map { close(double, $0) } ?? false
        case .string(let text): return (theirs as? String) == text
        case .array(let elements):
            guard let other = theirs as? [Any], other.count == elements.count else { return false }
            return zip(elements, other).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let other = theirs as? [String: Any], other.count == members.count else { return false }
            return members.allSatisfy { key, value in other[key].map { same(value, $0) } ?? false }
        }
    }

    private static func isBoolean(_ value: Any) -> Bool {
        String(describing: type(of: value)).contains("Boolean")
    }

    private static func number(_ value: Any) -> Double? {
        guard !isBoolean(value), let number = value as? NSNumber else { return nil }
        return number.doubleValue
    }

    /// Equal, or within what two correct decimal-to-binary conversions may differ by.
    private static func close(_ a: Double, _ b: Double) -> Bool {
        a == b || abs(a - b) <= 1e-12 * max(abs(a), abs(b))
    }
}
