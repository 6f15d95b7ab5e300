import Foundation
import Testing
@testable import MockAPNs

@Suite("Mock faults as JSON")
struct MockFaultsTests {
    @Test("a partial fault set decodes, the rest keeping defaults")
    func partial() throws {
        let faults = try JSONDecoder().decode(MockFaults.self, from: Data(#"{"errorRate":0.02,"errorStatus":503}"#.utf8))
        #expect(faults.errorRate == 0.02)
        #expect(faults.errorStatus == 503)
        #expect(faults.goAwayReason == "Shutdown")
        #expect(faults.latency == .none)
        #expect(try JSONDecoder().decode(MockFaults.self, from: Data("{}".utf8)) == MockFaults())
    }

    @Test("every fault survives encoding and decoding")
    func roundTrip() throws {
        var faults = MockFaults()
        faults.goAwayAfterStreams = 10
        faults.goAwayReason = "MaintenanceWindow"
        faults.stallEvery = 3
        faults.latency = .uniform(minimumMilliseconds: 1, maximumMilliseconds: 5)
        faults.forcedReason = "ExpiredProviderToken"
        faults.forcedReasonCount = 2
        faults.retryAfterSeconds = 7
        #expect(try JSONDecoder().decode(MockFaults.self, from: JSONEncoder().encode(faults)) == faults)
    }
}
