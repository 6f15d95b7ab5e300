import APNsCore
import HTTP2
import JSON

/// Apple's broadcast-channel API, as the mock serves it: channel management (`/1/apps/…`) and
/// broadcasts (`/4/broadcasts/apps/…`), with APNs' validation in APNs' order of concerns: path and
/// method, repeated headers, authentication, then the operation's own rules.
///
/// Bundle ids ending in `.nobroadcast` answer `FeatureNotEnabled`, standing for an app whose
/// broadcast capability is off (tests use it; Apple turns it on per app in the developer account).
struct ChannelEndpoint {
    let validator: RequestValidator
    let directory: ChannelDirectory

    /// Whether `path` is a channel request at all (else it is a push, or a bad path).
    static func handles(_ path: String) -> Bool {
        path.hasPrefix("/1/apps/") || path.hasPrefix("/4/broadcasts/apps/")
    }

    func answer(_ request: MockRequest, auth: inout ConnectionAuthState, newID: () -> String, newRequestID: () -> String) -> ChannelAnswer {
        let fields = RequestHeaderFields(request.headers)
        let requestID = request.headers.value(of: "apns-request-id") ?? newRequestID()
        do throws(ValidationRejection) {
            var answer = try handle(request, fields: fields, auth: &auth, newID: newID)
            answer.headers.insert(("apns-request-id", requestID), at: 0)
            return answer
        } catch {
            guard case .reject(_, let reason, _) = error.verdict else { return ChannelAnswer(.badRequestParams) }
            var answer = ChannelAnswer(reason)
            answer.headers.insert(("apns-request-id", requestID), at: 0)
            return answer
        }
    }

    private enum Route {
        case channels(bundleID: String)
        case allChannels(bundleID: String)
        case broadcast(bundleID: String)
    }

    private func handle(_ request: MockRequest, fields: RequestHeaderFields, auth: inout ConnectionAuthState, newID: () -> String) throws(ValidationRejection) -> ChannelAnswer {
        let route = try Self.route(fields.path ?? "")
        let method = fields.method ?? ""
        switch (route, method) {
        case (.channels, "POST"), (.channels, "GET"), (.channels, "DELETE"), (.allChannels, "GET"), (.broadcast, "POST"): break
        default: throw ValidationRejection(.methodNotAllowed)
        }
        guard !fields.hasDuplicates else { throw ValidationRejection(.duplicateHeaders) }
        let principal = try validator.authenticate(fields.authorization, auth: &auth)
        let bundleID: String
        switch route {
        case .channels(let id), .allChannels(let id), .broadcast(let id): bundleID = id
        }
        try checkApp(bundleID, principal: principal)
        if let requestID = request.headers.value(of: "apns-request-id"), (try? APNsID(requestID)) == nil {
            throw ValidationRejection(.badRequestParams)
        }
        auth.recordAcceptedPush(teamID: principal.teamID)
        switch (route, method) {
        case (.channels, "POST"): return try create(request.body, bundleID: bundleID, newID: newID)
        case (.channels, "GET"):
            let (_, channel) = try existing(request, bundleID: bundleID)
            return ChannelAnswer(status: 200, headers: [("content-type", "application/json")], body: Array(#"{"message-storage-policy":\#(channel.policy.rawValue),"push-type":"LiveActivity"}"#.utf8))
        case (.channels, _):
            let (id, _) = try existing(request, bundleID: bundleID)
            _ = directory.delete(id, of: bundleID)
            return ChannelAnswer(status: 204)
        case (.allChannels, _):
            let list = directory.ids(of: bundleID).map { "\"\($0)\"" }.joined(separator: ",")
            return ChannelAnswer(status: 200, headers: [("content-type", "application/json")], body: Array("{\"channels\":[\(list)]}".utf8))
        case (.broadcast, _):
            return try broadcast(request, fields: fields, bundleID: bundleID)
        }
    }

    private static func route(_ path: String) throws(ValidationRejection) -> Route {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        // "", "1", "apps", bundle, "channels"  |  "", "4", "broadcasts", "apps", bundle
        if parts.count == 5, parts[1] == "1", parts[2] == "apps", !parts[3].isEmpty {
            if parts[4] == "channels" { return .channels(bundleID: String(parts[3])) }
            if parts[4] == "all-channels" { return .allChannels(bundleID: String(parts[3])) }
        }
        if parts.count == 5, parts[1] == "4", parts[2] == "broadcasts", parts[3] == "apps", !parts[4].isEmpty {
            return .broadcast(bundleID: String(parts[4]))
        }
        throw ValidationRejection(.badPath)
    }

    /// The app must have broadcasting on, and a certificate must be the app's own.
    private func checkApp(_ bundleID: String, principal: AuthenticatedPrincipal) throws(ValidationRejection) {
        if bundleID.hasSuffix(".nobroadcast") { throw ValidationRejection(.featureNotEnabled) }
        switch principal {
        case .certificate(let certified):
            guard certified == bundleID else { throw ValidationRejection(.topicMismatch) }
        case .team(let teamID):
            guard validator.configuration.teamTopics[teamID]?.contains(bundleID) == true else { throw ValidationRejection(.topicMismatch) }
        }
    }

    private func create(_ body: [UInt8], bundleID: String, newID: () -> String) throws(ValidationRejection) -> ChannelAnswer {
        guard case .object(let settings)? = try? JSONReader.parse(body) else { throw ValidationRejection(.badRequestPayload) }
        guard let pushType = settings["push-type"] else { throw ValidationRejection(.missingPushType) }
        guard pushType == .string("LiveActivity") else { throw ValidationRejection(.invalidPushType) }
        guard case .integer(let number)? = settings["message-storage-policy"], let policy = MessageStoragePolicy(rawValue: Int(number)) else {
            throw ValidationRejection(.badRequestParams)
        }
        guard let id = directory.create(bundleID: bundleID, policy: policy, id: newID()) else {
            throw ValidationRejection(.cannotCreateChannelConfig)
        }
        return ChannelAnswer(status: 201, headers: [("apns-channel-id", id)])
    }

    /// The channel `apns-channel-id` names, which must exist.
    private func existing(_ request: MockRequest, bundleID: String) throws(ValidationRejection) -> (String, ChannelDirectory.Channel) {
        guard let id = request.headers.value(of: "apns-channel-id") else { throw ValidationRejection(.missingChannelID) }
        guard (try? ChannelID(id)) != nil else { throw ValidationRejection(.badChannelID) }
        guard let channel = directory.channel(id, of: bundleID) else { throw ValidationRejection(.channelNotRegistered) }
        return (id, channel)
    }

    private func broadcast(_ request: MockRequest, fields: RequestHeaderFields, bundleID: String) throws(ValidationRejection) -> ChannelAnswer {
        let (id, channel) = try existing(request, bundleID: bundleID)
        guard let pushType = fields.pushType else { throw ValidationRejection(.missingPushType) }
        guard pushType == PushType.liveActivity.headerValue else { throw ValidationRejection(.invalidPushType) }
        if let priority = fields.priority {
            guard let value = try? NotificationPriority(headerValue: priority), PushType.liveActivity.allowedPriorities.contains(value) else {
                throw ValidationRejection(.badPriority)
            }
        }
        if let expiration = fields.expiration {
            guard let value = try? NotificationExpiration(headerValue: expiration) else { throw ValidationRejection(.badExpirationDate) }
            // A channel that stores nothing cannot hold a broadcast for later.
            if channel.policy == .noMessageStored, value != .immediately { throw ValidationRejection(.badExpirationDate) }
        }
        guard !request.body.isEmpty else { throw ValidationRejection(.payloadEmpty) }
        guard request.body.count <= ChannelRequest.Broadcast.maximumPayloadSize else { throw ValidationRejection(.payloadTooLarge) }
        guard (try? JSONReader.validate(request.body)) == .object else { throw ValidationRejection(.badRequestPayload) }
        directory.recordBroadcast(to: id, of: bundleID, payload: request.body)
        return ChannelAnswer(status: 200)
    }
}
