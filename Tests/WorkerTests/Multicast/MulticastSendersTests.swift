import APNsCore
import Foundation
import Testing
@testable import Worker

/// The multicast senders' chain of sends, through fakes of the broker and APNs.
@Suite("Multicast senders (fake broker and APNs, no I/O)")
struct MulticastSendersTests {
    @Test("answers that come before their send returns: 10,000 tokens each sent once, by a loop, not a call nested per token")
    func answersAtOnce() async throws {
        let broker = FakeBroker()
        let sender = FakeSender(answersAtOnce: true)
        let tokens = (0..<Multicast.maximumTokens).map { String(format: "%064x", $0) }
        let body = #"{"id":"m-1","topic":"com.example.app","payload":{"aps":{}},"device_tokens":["\#(tokens.joined(separator: #"",""#))"]}"#
        try await JobProcessorTests.processor(broker: broker, sender: sender).process(JobProcessorTests.delivery(body, tag: 3))
        #expect(sender.sends == tokens.count)
        let result = try #require(JobProcessorTests.results(broker).first)
        #expect(result.status == .delivered)
        #expect(broker.acked == [3])
    }
}
