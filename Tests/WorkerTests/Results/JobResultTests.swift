import Foundation
import Testing
@testable import Worker

@Suite("Result messages")
struct JobResultTests {
    @Test("routing keys by status, reason and code", arguments: [
        (JobStatus.delivered, nil as String?, "result.delivered"),
        (.rejected, "Unregistered", "result.rejected.Unregistered"),
        (.failed, "ServiceUnavailable", "result.failed.ServiceUnavailable"),
        (.failed, "weird.reason #*", "result.failed.weird_reason___"),
        (.expired, nil, "result.expired"),
    ])
    func routingKeys(status: JobStatus, reason: String?, key: String) {
        var result = JobResult(id: "j", status: status, attempts: 1, completedAt: Date(), worker: "w")
        result.reason = reason
        #expect(result.routingKey == key)
    }

    @Test("the body uses the documented snake_case fields, leaves absent ones out, and round-trips")
    func encoding() throws {
        var result = JobResult(id: "j-1", status: .rejected, attempts: 2, completedAt: Date(timeIntervalSince1970: 1_800_000_000.25), worker: "w-1")
        result.apnsID = "123e4567-e89b-42d3-a456-426614174000"
        result.httpStatus = 410
        result.reason = "Unregistered"
        result.timestamp = 1_700_000_000_000
        result.deviceToken = "abcd"
        result.latencyMS = 12
        let body = result.encoded()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect(Set(object.keys) == ["id", "status", "apns_id", "http_status", "reason", "timestamp", "device_token", "attempts", "completed_at", "latency_ms", "worker"])
        #expect(object["completed_at"] as? String == "2027-01-15T08:00:00.250Z")
        #expect(try JobResult.decode(body) == result)
    }
}
