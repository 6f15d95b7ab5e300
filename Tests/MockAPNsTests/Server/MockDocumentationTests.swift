import Foundation
@testable import MockAPNs
import Testing
import TestSupport

/// docs/mock.md against the mock's code: every fault key documented (and nothing else), every JSON
/// example a fault set the mock accepts, every statistic it reports named.
@Suite("docs/mock.md describes the mock's faults and statistics")
struct MockDocumentationTests {
    static func text() throws -> String {
        try String(contentsOf: Fixtures.repository.appendingPathComponent("docs/mock.md"), encoding: .utf8)
    }

    @Test func theFaultTableHasARowForEveryKeyAndNoOther() throws {
        let rows = try Self.text().split(separator: "\n").compactMap { line in
            line.wholeMatch(of: #/\| `([A-Za-z]+)` \|.*/#).map { String($0.output.1) }
        }
        #expect(Set(rows) == Set(MockFaults.CodingKeys.allCases.map(\.rawValue)), "documented \(rows.sorted())")
        #expect(rows.count == MockFaults.CodingKeys.allCases.count, "a key documented twice")
    }

    @Test func everyJSONExampleIsAFaultSetTheMockAccepts() throws {
        // The faults a curl sets, and the examples listed as "- what: `{…}`".
        let text = try Self.text()
        let posted = text.matches(of: #/_mock/faults -d '(\{[^']*\})'/#).map { String($0.output.1) }
        let listed = text.matches(of: #/\n- [^\n`]+: `(\{[^`]*\})`/#).map { String($0.output.1) }
        let examples = posted + listed
        #expect(posted.count == 1 && listed.count == 4, "\(examples)")
        for example in examples {
            let faults = try JSONDecoder().decode(MockFaults.self, from: Data(example.utf8))
            #expect(faults != MockFaults(), "\(example) changes nothing")
        }
    }

    @Test func everyStatisticIsNamed() throws {
        let encoded = try JSONEncoder().encode(DeliveryRecorder().snapshot)
        let keys = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any]).keys
        let statistics = try #require(try Self.text().components(separatedBy: "## Statistics").last)
        for key in keys { #expect(statistics.contains("`\(key)`"), "docs/mock.md does not name the statistic \(key)") }
    }
}
