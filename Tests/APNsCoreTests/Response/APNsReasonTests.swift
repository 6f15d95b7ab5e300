import Testing
@testable import APNsCore

@Suite("APNs reasons")
struct APNsReasonTests {
    /// The reference's table of device-API reasons, by status.
    static let reference: [Int: [String]] = [
        400: [
            "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
            "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
            "MissingTopic", "PayloadEmpty", "TopicDisallowed",
        ],
        403: [
            "BadCertificate", "BadCertificateEnvironment", "ExpiredProviderToken", "Forbidden", "InvalidProviderToken",
            "MissingProviderToken", "UnrelatedKeyIdInToken", "BadEnvironmentKeyIdInToken",
        ],
        404: ["BadPath"], 405: ["MethodNotAllowed"], 410: ["ExpiredToken", "Unregistered"], 413: ["PayloadTooLarge"],
        429: ["TooManyProviderTokenUpdates", "TooManyRequests"], 500: ["InternalServerError"],
        503: ["ServiceUnavailable", "Shutdown"],
    ]

    static let broadcast = [
        "FeatureNotEnabled", "MissingChannelId", "BadChannelId", "ChannelNotRegistered", "BadRequestParams",
        "BadRequestPayload", "MissingPushType", "CannotCreateChannelConfig", "TopicMismatch",
    ]

    @Test("every reason in the reference decodes to a known case with its documented status")
    func referenceTable() {
        for (status, names) in Self.reference {
            for name in names {
                let reason = APNsReason(name: name)
                if case .unknown = reason { Issue.record("\(name) decoded as unknown") }
                #expect(reason.name == name)
                #expect(reason.documentedStatus == status)
            }
        }
        for name in Self.broadcast {
            #expect(APNsReason(name: name).documentedStatus != nil, "\(name)")
        }
        #expect(APNsReason.table.count == Self.reference.values.map(\.count).reduce(0, +) + Self.broadcast.count)
    }

    @Test("an unknown reason is carried through verbatim")
    func unknownReason() {
        let reason = APNsReason(name: "QuantumEntanglementFailure")
        #expect(reason == .unknown("QuantumEntanglementFailure"))
        #expect(reason.name == "QuantumEntanglementFailure")
        #expect(reason.documentedStatus == nil)
        #expect(APNsReason(name: "badDeviceToken") == .unknown("badDeviceToken"))
    }
}
