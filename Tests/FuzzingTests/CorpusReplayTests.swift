import Foundation
import AMQP
import Fuzzing
import MockAPNs
import Testing

/// Every committed seed and every input a fuzzer ever crashed on (`Fuzz/Regressions/<fuzzer>/`), through
/// the same checks libFuzzer runs: a crash found once stays fixed.
@Suite("Fuzz corpus and regressions, replayed")
struct CorpusReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func inputs(_ fuzzer: String) throws -> [[UInt8]] {
        let folders = ["Fuzz/Corpus/\(fuzzer)", "Fuzz/Regressions/\(fuzzer)"].map { root.appendingPathComponent($0) }
        return try folders.flatMap { folder -> [[UInt8]] in
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
            return try names.sorted().map { Array(try Data(contentsOf: folder.appendingPathComponent($0))) }
        }
    }

    @Test("job decoder")
    func jobDecoder() throws {
        let inputs = try Self.inputs("job-decoder")
        #expect(inputs.count >= 10)
        for input in inputs { JobDecodingProbe.run(input) }
    }

    @Test("mock request validation")
    func mockValidation() throws {
        let pem = try String(contentsOf: Self.root.appendingPathComponent("Tests/Fixtures/keys/AuthKey_TESTKEY001.pub.pem"), encoding: .utf8)
        let probe = try MockValidationProbe(publicKeyPEM: pem)
        let inputs = try Self.inputs("mock-validation")
        #expect(inputs.count >= 10)
        for input in inputs { probe.run(input) }
        // The seeds reach past authentication: a valid token of the test key, on the probe's clock.
        let accepted = try Data(contentsOf: Self.root.appendingPathComponent("Fuzz/Corpus/mock-validation/accepted"))
        #expect(probe.run(Array(accepted)) == .accept)
    }

    @Test("AMQP content-header decoding")
    func amqpContent() throws {
        let inputs = try Self.inputs("amqp-content")
        #expect(inputs.count >= 5)
        for input in inputs { AMQPContentProbe.run(input) }
    }

    @Test("AMQP inbound frames")
    func amqpFrames() throws {
        let inputs = try Self.inputs("amqp-frames")
        #expect(inputs.count >= 20)
        for input in inputs { AMQPFramesProbe.run(input) }
        // The seeds are real broker traffic: the whole recordings decode without an error.
        for version in ["4.0", "3.10"] {
            let recording = try Data(contentsOf: Self.root.appendingPathComponent("Tests/Fixtures/amqp/rabbitmq-\(version).bin"))
            let summary = InboundDecoding.summary(of: Array(recording), cuts: [100, 5000], maximumFrameSize: 8192)
            #expect(!summary.contains { $0.hasPrefix("error") }, "\(summary.suffix(3))")
            #expect(summary.contains { $0.hasPrefix("content") && $0.hasSuffix("of 10000 bytes") } && summary.contains("heartbeat"), "\(summary)")
        }
    }
}
