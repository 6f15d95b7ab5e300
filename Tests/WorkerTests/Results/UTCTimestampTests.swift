import APNsCore
import Foundation
import Testing
import TestSupport
@testable import Worker

@Suite("UTC timestamps with milliseconds")
struct UTCTimestampTests {
    @Test("the same text as Foundation's ISO8601FormatStyle, on 200,000 times from 1970 to 2100 and the edges")
    func matchesFoundation() {
        var random = SeededGenerator(seed: 2026)
        let edges: [TimeInterval] = [0, 0.0005, 0.9999, 951_782_400, 4_102_444_799.999, 1_700_000_000.1234, 1_700_000_000.0004999, 86_399.999]
        let times = edges + (0..<200_000).map { _ in Double.random(in: 0..<4_102_444_800, using: &random) }
        for time in times {
            let date = Date(timeIntervalSince1970: time)
            #expect(UTCTimestamp.string(date) == date.formatted(JobResult.timeFormat), "\(time)")
        }
    }
}
