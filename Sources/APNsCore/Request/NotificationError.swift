/// Why a notification request is invalid before it is ever sent.
///
/// Each code names the APNs reason the server would answer with, so a request refused locally and one
/// refused by APNs read the same in results and logs.
public struct NotificationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable name for the rule that was broken.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        /// The APNs reason for this violation.
        public let reason: APNsReason
        public var description: String { name }

        public static let badDeviceToken = Code(name: "BadDeviceToken", reason: .badDeviceToken)
        public static let missingTopic = Code(name: "MissingTopic", reason: .missingTopic)
        /// The topic lacks the suffix its push type requires, or carries another type's suffix.
        public static let topicMismatch = Code(name: "BadTopic", reason: .badTopic)
        public static let invalidPushType = Code(name: "InvalidPushType", reason: .invalidPushType)
        public static let badPriority = Code(name: "BadPriority", reason: .badPriority)
        public static let badExpirationDate = Code(name: "BadExpirationDate", reason: .badExpirationDate)
        public static let badCollapseID = Code(name: "BadCollapseId", reason: .badCollapseID)
        public static let badMessageID = Code(name: "BadMessageId", reason: .badMessageID)
        public static let payloadEmpty = Code(name: "PayloadEmpty", reason: .payloadEmpty)
        public static let payloadTooLarge = Code(name: "PayloadTooLarge", reason: .payloadTooLarge)
        public static let missingChannelID = Code(name: "MissingChannelId", reason: .missingChannelID)
        public static let badChannelID = Code(name: "BadChannelId", reason: .badChannelID)
        /// A channel request's parameters are wrong (no bundle id, a storage policy APNs does not know).
        public static let badRequestParams = Code(name: "BadRequestParams", reason: .badRequestParams)

        /// Every code above, for tools that check a code someone typed.
        public static let all: [Code] = [
            badDeviceToken, missingTopic, topicMismatch, invalidPushType, badPriority, badExpirationDate, badCollapseID, badMessageID,
            payloadEmpty, payloadTooLarge, missingChannelID, badChannelID, badRequestParams,
        ]
    }

    public let code: Code
    /// What exactly was wrong, safe to log (device tokens appear truncated).
    public let detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code): \(detail)" }
}
