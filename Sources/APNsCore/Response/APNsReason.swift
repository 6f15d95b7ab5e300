/// The `reason` APNs gives for a rejected request, each documented with the HTTP status it comes with.
///
/// `unknown` carries any string this version does not know, so a reason Apple adds never breaks decoding.
public enum APNsReason: Hashable, Sendable, CustomStringConvertible {
    // 400 Bad Request
    /// 400: the collapse id is longer than 64 bytes.
    case badCollapseID
    /// 400: the token is malformed or belongs to the other environment.
    case badDeviceToken
    /// 400: `apns-expiration` is not a UNIX time.
    case badExpirationDate
    /// 400: `apns-id` is not a canonical UUID.
    case badMessageID
    /// 400: `apns-priority` is not 10, 5 or 1 (or not allowed for the push type).
    case badPriority
    /// 400: `apns-topic` is invalid.
    case badTopic
    /// 400: the token does not belong to the topic.
    case deviceTokenNotForTopic
    /// 400: a header was repeated.
    case duplicateHeaders
    /// 400: the connection was idle too long; APNs closes it.
    case idleTimeout
    /// 400: `apns-push-type` is not a known value.
    case invalidPushType
    /// 400: `:path` has no device token.
    case missingDeviceToken
    /// 400: `apns-topic` is required (several topics on the credential) but absent.
    case missingTopic
    /// 400: the body is empty.
    case payloadEmpty
    /// 400: the topic is not allowed for this credential.
    case topicDisallowed

    // 403 Forbidden
    /// 403: the client certificate is invalid or revoked.
    case badCertificate
    /// 403: the client certificate belongs to the other environment.
    case badCertificateEnvironment
    /// 403: the provider token's `iat` is more than an hour old.
    case expiredProviderToken
    /// 403: the action is not allowed.
    case forbidden
    /// 403: the provider token is not valid or cannot be verified.
    case invalidProviderToken
    /// 403: no provider token and no client certificate.
    case missingProviderToken
    /// 403: the key id is unrelated to the team or topic bound to the connection.
    case unrelatedKeyIDInToken
    /// 403: the key is scoped to the other environment.
    case badEnvironmentKeyIDInToken

    /// 404: the `:path` is not a valid request path.
    case badPath
    /// 405: only POST is allowed.
    case methodNotAllowed

    // 410 Gone: not an error; the device token is dead.
    /// 410: the token has expired.
    case expiredToken
    /// 410: the token is no longer active for the topic.
    case unregistered

    /// 413: the payload is larger than the limit.
    case payloadTooLarge

    // 429 Too Many Requests
    /// 429: the provider token was changed on this connection too often.
    case tooManyProviderTokenUpdates
    /// 429: too many requests to the same device token.
    case tooManyRequests

    /// 500: APNs had an internal error.
    case internalServerError

    // 503 Service Unavailable
    /// 503: APNs is unavailable.
    case serviceUnavailable
    /// 503: the APNs server is shutting down this connection.
    case shutdown

    // Broadcast and channel-management APIs (iOS 18 Live Activities).
    /// 400: the feature is not enabled for the app.
    case featureNotEnabled
    /// 400: `apns-channel-id` is required but absent.
    case missingChannelID
    /// 400: `apns-channel-id` is malformed.
    case badChannelID
    /// 400: the channel does not exist.
    case channelNotRegistered
    /// 400: the request parameters are invalid.
    case badRequestParams
    /// 400: the request body is invalid.
    case badRequestPayload
    /// 400: `apns-push-type` is required but absent.
    case missingPushType
    /// 400: the app already has the maximum number of channels.
    case cannotCreateChannelConfig
    /// 403: the topic does not match the channel's app.
    case topicMismatch

    /// A reason this version does not know, kept verbatim.
    case unknown(String)
}
