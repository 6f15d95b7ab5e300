import APNsCore
import JSON

/// The `apns-*` headers and the body, checked against the push type's rules.
extension RequestValidator {
    /// An absent `apns-push-type` is an alert, as APNs treats it outside watchOS.
    static func pushType(_ value: String?) throws(ValidationRejection) -> PushType {
        guard let value else { return .alert }
        let pushType = PushType(headerValue: value)
        if case .unknown = pushType { throw ValidationRejection(.invalidPushType) }
        return pushType
    }

    /// The topic must fit the push type's suffix rule and name a bundle the principal may push to.
    func checkTopic(_ topic: String?, pushType: PushType, principal: AuthenticatedPrincipal) throws(ValidationRejection) {
        let resolved: String
        if let topic {
            resolved = topic
        } else if case .certificate(let bundleID) = principal {
            // A certificate's topics are implied by it, so APNs fills in the one for this push type.
            resolved = bundleID + (pushType.topicSuffix ?? "")
        } else {
            throw ValidationRejection(.missingTopic)
        }
        if case .certificate = principal, pushType.requiresTokenAuthentication {
            throw ValidationRejection(.topicDisallowed)
        }
        do {
            try pushType.validate(topic: resolved)
        } catch {
            throw ValidationRejection(error.code.reason)
        }
        let bundleID = resolved.dropLast(pushType.topicSuffix?.count ?? 0)
        guard mayPush(to: bundleID, as: principal) else { throw ValidationRejection(.topicDisallowed) }
    }

    private func mayPush(to bundleID: Substring, as principal: AuthenticatedPrincipal) -> Bool {
        switch principal {
        case .certificate(let certificateBundleID): bundleID == certificateBundleID
        case .team(let id): configuration.teamTopics[id]?.contains(String(bundleID)) ?? false
        }
    }

    /// Priority (parsed and allowed for the type), expiration, collapse id and apns-id, in that order.
    static func checkOptionalHeaders(_ fields: RequestHeaderFields, pushType: PushType) throws(ValidationRejection) {
        if let value = fields.priority {
            guard let priority = try? NotificationPriority(headerValue: value), pushType.allowedPriorities.contains(priority)
            else { throw ValidationRejection(.badPriority) }
        }
        if let value = fields.expiration, (try? NotificationExpiration(headerValue: value)) == nil {
            throw ValidationRejection(.badExpirationDate)
        }
        if let value = fields.collapseID, (try? CollapseID(value)) == nil {
            throw ValidationRejection(.badCollapseID)
        }
        if let value = fields.apnsID, (try? APNsID(value)) == nil {
            throw ValidationRejection(.badMessageID)
        }
    }

    /// Present, within the type's limit, and a JSON object.
    static func checkPayload(_ body: [UInt8], pushType: PushType) throws(ValidationRejection) {
        guard !body.isEmpty else { throw ValidationRejection(.payloadEmpty) }
        guard body.count <= pushType.maximumPayloadSize else { throw ValidationRejection(.payloadTooLarge) }
        // The device API documents no reason for a body that is not a JSON object. BadRequestPayload is
        // Apple's name for exactly that on the broadcast API, and a documented name decodes to a known
        // reason in the client instead of `.unknown`.
        guard (try? JSONReader.validate(body)) == .object else { throw ValidationRejection(.badRequestPayload) }
    }
}
