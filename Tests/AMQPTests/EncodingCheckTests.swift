import APNsCore
import Testing
import TestSupport
@testable import AMQP

/// The publish check against rabbitmq-c's own encoder (no broker): what the check passes, the library
/// encodes to exactly the predicted size and decodes back unchanged; what the check refuses, the library
/// either refuses or — for a table key over 255 bytes — garbles.
@Suite("AMQP encoding check (no I/O)")
struct EncodingCheckTests {
    @Test("2,000 random property sets: the check and the library agree, sizes to the byte")
    func agreesWithLibrary() throws {
        var random = SeededGenerator(seed: 255)
        for _ in 0..<2_000 {
            let properties = Self.properties(&random)
            let problems = EncodingCheck.problems(properties: properties, frameMax: AMQPMessage.defaultFrameMax)
            let encoded = PropertiesCodec.encode(properties)
            let shortStrings = problems.filter { ![.contentHeader, .expiration].contains($0.field) && !Self.isHeader($0.field) }
            if !shortStrings.isEmpty {
                #expect((try? encoded.get()) == nil, "the library must refuse: \(shortStrings)")
                continue
            }
            let bytes = try encoded.get()
            #expect(bytes.count == 2 + EncodingCheck.propertiesSize(properties), "flags, then exactly the predicted properties")
            let decoded = PropertiesCodec.decode(bytes)
            if problems.contains(where: { Self.isHeader($0.field) }) {
                #expect(decoded != properties, "a key over 255 bytes is garbled, which is why the check refuses it")
            } else {
                #expect(decoded == properties)
            }
        }
    }

    @Test("each kind of problem is named by its field")
    func fields() {
        var properties = AMQPProperties(correlationID: String(repeating: "c", count: 256), headers: [String(repeating: "k", count: 300): true])
        properties.expiration = "-1"
        let fields = EncodingCheck.problems(exchange: "", routingKey: String(repeating: "r", count: 256), properties: properties, frameMax: 131_072).map(\.field)
        #expect(Set(fields) == [.routingKey, .correlationID, .expiration, .header(String(repeating: "k", count: 300))])
        let nested = AMQPProperties(headers: ["x": .array([.table([String(repeating: "n", count: 256): 1])])])
        #expect(EncodingCheck.problems(properties: nested, frameMax: 131_072).map(\.field) == [.header("x")])
        let huge = AMQPProperties(headers: ["blob": .string(String(repeating: "b", count: 140_000))])
        #expect(EncodingCheck.problems(properties: huge, frameMax: 131_072).map(\.field) == [.contentHeader])
        for expiration in ["0", "60000", "4294967295"] {
            #expect(EncodingCheck.problems(properties: AMQPProperties(expiration: expiration), frameMax: 131_072).isEmpty)
        }
        for expiration in ["", "1.5", "4294967296", "+5", "5 "] {
            #expect(EncodingCheck.problems(properties: AMQPProperties(expiration: expiration), frameMax: 131_072).map(\.field) == [.expiration])
        }
    }

    @Test("headers nested beyond 32 levels are cut when decoded, with a marker, instead of exhausting the stack")
    func deepHeaders() throws {
        var value = AMQPFieldValue.string("bottom")
        for level in 0..<2_000 { value = level.isMultiple(of: 2) ? .table(["t": value]) : .array([value]) }
        let bytes = try PropertiesCodec.encode(AMQPProperties(headers: ["deep": value])).get()
        let decoded = try #require(PropertiesCodec.decode(bytes))
        var depth = 0
        var current = decoded.headers["deep"]
        while let next = current {
            depth += 1
            switch next {
            case .table(let table): current = table["t"]
            case .array(let values): current = values.first
            default: current = nil
            }
            if case .string(let text)? = current { #expect(text == FieldDecoding.tooDeepMarker.stringValue); break }
        }
        #expect(depth == FieldDecoding.maximumDepth - 1)
    }

    static func isHeader(_ field: AMQPEncodingProblem.Field) -> Bool {
        if case .header = field { return true }
        return false
    }

    static func properties(_ random: inout SeededGenerator) -> AMQPProperties {
        func text(_ random: inout SeededGenerator) -> String? {
            guard Int.random(in: 0..<3, using: &random) > 0 else { return nil }
            let unit = ["a", "é", "東", "😀"].randomElement(using: &random)!
            return String(repeating: unit, count: Int.random(in: 0...[10, 80, 300].randomElement(using: &random)!, using: &random))
        }
        func value(_ random: inout SeededGenerator, depth: Int) -> AMQPFieldValue {
            switch Int.random(in: 0..<(depth < 3 ? 6 : 4), using: &random) {
            case 0: .string(text(&random) ?? "")
            case 1: .int(Int64.random(in: .min ... .max, using: &random))
            case 2: .bool(Bool.random(using: &random))
            case 3: .double(Double.random(in: -1e9...1e9, using: &random))
            case 4: .array((0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random, depth: depth + 1) })
            default: .table(table(&random, depth: depth + 1))
            }
        }
        func table(_ random: inout SeededGenerator, depth: Int) -> [String: AMQPFieldValue] {
            var table: [String: AMQPFieldValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                table[text(&random).map { $0.isEmpty ? "k" : $0 } ?? "key"] = value(&random, depth: depth)
            }
            return table
        }
        return AMQPProperties(
            contentType: text(&random), messageID: text(&random), correlationID: text(&random), replyTo: text(&random),
            persistent: Bool.random(using: &random), headers: table(&random, depth: 0),
            expiration: Bool.random(using: &random) ? String(UInt32.random(in: 0 ... .max, using: &random)) : nil,
            timestamp: Bool.random(using: &random) ? Int64.random(in: 0...Int64.max, using: &random) : nil,
            type: text(&random), appID: text(&random)
        )
    }
}

extension AMQPFieldValue {
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
