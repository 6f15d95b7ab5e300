import APNsCore
import JSON
import TestSupport

/// Random JSON documents for the differential tests: trees written with random whitespace, escapes,
/// number forms and scripts; and, from those, broken documents made by the mutations real producers
/// and attackers make (a byte lost or added, a string cut, bad UTF-8, a lone surrogate, a key twice...).
struct DocumentGenerator {
    var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// A valid document, mostly; its text is written by this generator, not by an encoder under test.
    mutating func document() -> [UInt8] {
        var bytes: [UInt8] = []
        write(value(depth: 0), into: &bytes)
        return bytes
    }

    /// A document with one or two random mutations: usually invalid, sometimes still valid.
    mutating func mutated() -> [UInt8] {
        var bytes = document()
        for _ in 0..<Int.random(in: 1...2, using: &random) { mutate(&bytes) }
        return bytes
    }

    // MARK: Trees

    private mutating func value(depth: Int) -> JSONValue {
        let containers = depth < 5 ? 3 : 0
        switch Int.random(in: 0..<(7 + containers), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2, 3: return number()
        case 4, 5, 6: return .string(text())
        case 7: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in value(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &random) { members[text(maximum: 6)] = value(depth: depth + 1) }
            return .object(members)
        }
    }

    private mutating func number() -> JSONValue {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return .integer(Int64.random(in: -1000...1000, using: &random))
        case 1: return .integer(Int64.random(in: .min ... .max, using: &random))
        case 2: return .number(Double.random(in: -1e6...1e6, using: &random))
        case 3: return .number(Double(sign: .plus, exponent: Int.random(in: -1000...1000, using: &random), significand: Double.random(in: 1..<2, using: &random)))
        case 4: return .integer(0)
        default: return .number(Double.random(in: 0..<1, using: &random))
        }
    }

    /// Text from a mix of scripts, with characters JSON must escape and ones it need not.
    private mutating func text(maximum: Int = 12) -> String {
        let pieces = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "é", "ß", "東", "😀", "\u{2028}", "\u{FFFF}", "\u{10FFFF}", "\u{0}"]
        return (0..<Int.random(in: 0...maximum, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    // MARK: Writing

    private mutating func write(_ value: JSONValue, into bytes: inout [UInt8]) {
        space(&bytes)
        switch value {
        case .null: bytes += Array("null".utf8)
        case .bool(let flag): bytes += Array((flag ? "true" : "false").utf8)
        case .integer(let integer): bytes += Array(String(integer).utf8)
        case .number(let number): bytes += Array(numberText(number).utf8)
        case .string(let string): write(string, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element, into: &bytes)
            }
            space(&bytes)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            // In key order: a dictionary's own order changes from process to process, and with it the draws.
            for (index, (key, member)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                space(&bytes)
                write(key, into: &bytes)
                space(&bytes)
                bytes.append(UInt8(ascii: ":"))
                write(member, into: &bytes)
            }
            space(&bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        space(&bytes)
    }

    /// A string with each character written raw or escaped at random (`\u` in either case, pairs for
    /// astral characters), as long as the result is valid JSON.
    private mutating func write(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
            if !mustEscape, Bool.random(using: &random) {
                bytes += Array(String(scalar).utf8)
            } else if let short = ["\"": "\\\"", "\\": "\\\\", "/": "\\/", "\n": "\\n", "\t": "\\t"][Character(scalar)], Bool.random(using: &random) {
                bytes += Array(short.utf8)
            } else {
                for unit in String(scalar).utf16 { bytes += Array(hexEscape(unit).utf8) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func hexEscape(_ unit: UInt16) -> String {
        let hex = String(unit, radix: 16, uppercase: Bool.random(using: &random))
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    private mutating func numberText(_ number: Double) -> String {
        let plain = "\(number)"
        guard plain.contains("e") || Bool.random(using: &random) else { return plain }
        // The same value in another legal form: explicit exponent sign, capital E.
        return plain.replacing("e", with: ["e", "E", "e+"].randomElement(using: &random)!).replacing("e+-", with: "e-").replacing("E+-", with: "E-")
    }

    private mutating func space(_ bytes: inout [UInt8]) {
        guard Int.random(in: 0..<4, using: &random) == 0 else { return }
        for _ in 0..<Int.random(in: 1...3, using: &random) { bytes.append([0x20, 0x09, 0x0A, 0x0D].randomElement(using: &random)!) }
    }

    // MARK: Mutations

    private mutating func mutate(_ bytes: inout [UInt8]) {
        let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<12, using: &random) {
        case 0 where !bytes.isEmpty: bytes.remove(at: position)
        case 1: bytes.insert(Self.interestingBytes.randomElement(using: &random)!, at: position)
        case 2 where !bytes.isEmpty: bytes[position] = Self.interestingBytes.randomElement(using: &random)!
        case 3: bytes = Array(bytes.prefix(position))
        case 4: bytes.insert(contentsOf: Self.badUTF8.randomElement(using: &random)!, at: position)
        case 5: bytes.insert(contentsOf: Array(["\\ud800", "\\udfff", "\\u12", "\\x", "\\ud83d\\u0041"].randomElement(using: &random)!.utf8), at: position)
        case 6: bytes = [0xEF, 0xBB, 0xBF] + bytes
        case 7: bytes = Array("{\"k\":1,\"k\":".utf8) + bytes + [UInt8(ascii: "}")]
        case 8: bytes = Array("[".utf8) + bytes + Array(",]".utf8)
        case 9:
            let depth = Int.random(in: 60...70, using: &random)
            bytes = Array(repeating: UInt8(ascii: "["), count: depth) + bytes + Array(repeating: UInt8(ascii: "]"), count: depth)
        case 10: bytes.insert(contentsOf: Array(["1e400", "-1e309", "01", "1.", "-", ".5", "1e", "+1", "NaN", "Infinity"].randomElement(using: &random)!.utf8), at: position)
        default: bytes.insert(contentsOf: Array([",", ":", "{}", "[]", "\"\"", "true", "nul", " "].randomElement(using: &random)!.utf8), at: position)
        }
    }

    static let interestingBytes: [UInt8] = [
        0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x22, 0x5C, 0x30, 0x2D, 0x2E, 0x65, 0x31, 0x20, 0x00, 0x01, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xED, 0xF4, 0xF5, 0xFF,
    ]
    static let badUTF8: [[UInt8]] = [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x98]]
}
