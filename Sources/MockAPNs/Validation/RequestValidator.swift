public import APNsCore
public import Foundation

/// Validates device-push requests as APNs does, in APNs' order of concerns, without any I/O.
///
/// Order: method, path, duplicate headers, authentication (certificate or token), push type, topic,
/// priority, expiration, collapse id, apns-id, payload, device. The first failure is the answer.
public struct RequestValidator: Sendable {
    /// How far in the future a token's `iat` may be before it is refused: tolerates clock skew between hosts.
    public static let allowedFutureSkew: TimeInterval = 5 * 60

    public let configuration: MockAPNsConfiguration
    let clock: any WallClock
    let verifier: ProviderTokenVerifier

    public init(configuration: MockAPNsConfiguration, clock: any WallClock) {
        self.configuration = configuration
        self.clock = clock
        verifier = ProviderTokenVerifier(keys: configuration.signingKeys)
    }

    /// Validates like APNs, in APNs' order of concerns. Token checks may install a new token on `auth`; an
    /// accepted push marks `auth` as having one and binds its team.
    public func validate(_ request: MockRequest, auth: inout ConnectionAuthState) -> MockVerdict {
        do throws(ValidationRejection) {
            let fields = RequestHeaderFields(request.headers)
            guard fields.method == "POST" else { throw ValidationRejection(.methodNotAllowed) }
            let deviceToken = try Self.deviceToken(fromPath: fields.path)
            guard !fields.hasDuplicates else { throw ValidationRejection(.duplicateHeaders) }
            let principal = try authenticate(fields.authorization, auth: &auth)
            let pushType = try Self.pushType(fields.pushType)
            try checkTopic(fields.topic, pushType: pushType, principal: principal)
            try Self.checkOptionalHeaders(fields, pushType: pushType)
            try Self.checkPayload(request.body, pushType: pushType)
            try checkDevice(deviceToken)
            auth.recordAcceptedPush(teamID: principal.teamID)
            return .accept
        } catch {
            return error.verdict
        }
    }

    /// The device token of `/3/device/<hex>`.
    static func deviceToken(fromPath path: String?) throws(ValidationRejection) -> DeviceToken {
        let prefix = "/3/device/"
        guard let path, path.hasPrefix(prefix) else { throw ValidationRejection(.badPath) }
        let hex = path.dropFirst(prefix.count)
        guard !hex.isEmpty else { throw ValidationRejection(.missingDeviceToken) }
        do {
            return try DeviceToken(hex: String(hex))
        } catch {
            throw ValidationRejection(.badDeviceToken)
        }
    }

    /// What the registry says about the device; 410 carries the time the app went away.
    func checkDevice(_ token: DeviceToken) throws(ValidationRejection) {
        switch configuration.registry.status(of: token.hexString) {
        case .active: return
        case .unknown: throw ValidationRejection(.badDeviceToken)
        case .unregistered(let since): throw ValidationRejection(.unregistered, timestampMilliseconds: since)
        }
    }
}
