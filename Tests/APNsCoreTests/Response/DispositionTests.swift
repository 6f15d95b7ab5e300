import Testing
@testable import APNsCore

@Suite("Classifying failures")
struct DispositionTests {
    static let expected: [(String, Disposition)] = [
        ("BadDeviceToken", .permanent), ("DeviceTokenNotForTopic", .permanent), ("Forbidden", .permanent),
        ("ExpiredToken", .permanent), ("Unregistered", .permanent), ("PayloadTooLarge", .permanent),
        ("BadTopic", .permanent), ("TopicDisallowed", .permanent), ("BadPath", .permanent),
        ("MethodNotAllowed", .permanent), ("BadCollapseId", .permanent), ("MissingTopic", .permanent),
        ("TooManyRequests", .retryLater), ("InternalServerError", .retryLater), ("ServiceUnavailable", .retryLater),
        ("ExpiredProviderToken", .retryAfterTokenRefresh),
        ("TooManyProviderTokenUpdates", .recycleConnection), ("Shutdown", .recycleConnection),
        ("IdleTimeout", .recycleConnection),
        ("InvalidProviderToken", .credentialFailure), ("BadCertificate", .credentialFailure),
        ("BadCertificateEnvironment", .credentialFailure), ("MissingProviderToken", .credentialFailure),
        ("UnrelatedKeyIdInToken", .credentialFailure), ("BadEnvironmentKeyIdInToken", .credentialFailure),
    ]

    @Test("each reason lands in its class")
    func table() {
        for (name, disposition) in Self.expected {
            let reason = APNsReason(name: name)
            #expect(Disposition(reason: reason, status: reason.documentedStatus!) == disposition, "\(name)")
        }
    }

    @Test("every known reason is classified, and never retried forever when permanent per Apple")
    func everyReason() {
        let neverRetry: Set<String> = ["BadDeviceToken", "DeviceTokenNotForTopic", "Forbidden", "ExpiredToken", "Unregistered", "PayloadTooLarge"]
        for entry in APNsReason.table where neverRetry.contains(entry.name) {
            #expect(Disposition(reason: entry.reason, status: entry.status) == .permanent)
        }
    }

    @Test("unknown reasons fall back to their status", arguments: [
        (429, Disposition.retryLater), (500, .retryLater), (503, .retryLater), (599, .retryLater),
        (403, .credentialFailure), (400, .permanent), (404, .permanent),
    ])
    func unknownByStatus(status: Int, disposition: Disposition) {
        #expect(Disposition(reason: .unknown("Novel"), status: status) == disposition)
    }
}
