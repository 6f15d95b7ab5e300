import Testing
@testable import APNsCore

@Suite("Notification requests")
struct NotificationRequestTests {
    let token = try! DeviceToken(hex: String(repeating: "0f", count: 32))
    let payload = Array(#"{"aps":{"alert":"hi"}}"#.utf8)

    func request(
        topic: String = "com.example.app",
        pushType: PushType = .alert,
        priority: NotificationPriority? = nil,
        payload: [UInt8]? = nil
    ) throws(NotificationError) -> NotificationRequest {
        try NotificationRequest(deviceToken: token, topic: topic, pushType: pushType, priority: priority, payload: payload ?? self.payload)
    }

    @Test("a valid alert gets priority 10 and its path")
    func valid() throws {
        let request = try request()
        #expect(request.priority == .immediate)
        #expect(request.path == "/3/device/" + String(repeating: "0f", count: 32))
    }

    @Test("background defaults to priority 5 and refuses 10 and 1")
    func background() throws {
        #expect(try request(pushType: .background).priority == .conservePower)
        for priority in [NotificationPriority.immediate, .low] {
            let error = #expect(throws: NotificationError.self) { try request(pushType: .background, priority: priority) }
            #expect(error?.code == .badPriority)
        }
    }

    @Test("alert and Live Activities allow 10 or 5; other types allow 1 too")
    func priorities() throws {
        #expect(throws: NotificationError.self) { try request(priority: .low) }
        #expect(throws: NotificationError.self) {
            try request(topic: "com.example.app.push-type.liveactivity", pushType: .liveActivity, priority: .low)
        }
        #expect(try request(topic: "com.example.app.complication", pushType: .complication, priority: .low).priority == .low)
        #expect(try request(priority: .conservePower).priority == .conservePower)
    }

    @Test("priority header values other than 10, 5 and 1 are BadPriority", arguments: ["0", "11", "high", "", "05x"])
    func badPriorityHeader(value: String) {
        let error = #expect(throws: NotificationError.self) { try NotificationPriority(headerValue: value) }
        #expect(error?.code == .badPriority)
    }

    @Test("an empty payload is PayloadEmpty")
    func emptyPayload() {
        let error = #expect(throws: NotificationError.self) { try request(payload: []) }
        #expect(error?.code == .payloadEmpty)
    }

    @Test("payloads at the limit pass, one byte over is PayloadTooLarge")
    func payloadLimits() throws {
        _ = try request(payload: [UInt8](repeating: 0x20, count: 4096))
        let error = #expect(throws: NotificationError.self) { try request(payload: [UInt8](repeating: 0x20, count: 4097)) }
        #expect(error?.code == .payloadTooLarge)
        _ = try request(topic: "com.example.app.voip", pushType: .voip, payload: [UInt8](repeating: 0x20, count: 5120))
        let voipError = #expect(throws: NotificationError.self) {
            try request(topic: "com.example.app.voip", pushType: .voip, payload: [UInt8](repeating: 0x20, count: 5121))
        }
        #expect(voipError?.code == .payloadTooLarge)
    }

    @Test("an unknown push type is InvalidPushType")
    func unknownPushType() {
        let error = #expect(throws: NotificationError.self) { try request(pushType: .unknown("hologram")) }
        #expect(error?.code == .invalidPushType)
        #expect(error?.code.reason == .invalidPushType)
    }

    @Test("a topic missing its push type's suffix is refused")
    func topicWithoutSuffix() {
        let error = #expect(throws: NotificationError.self) { try request(topic: "com.example.app", pushType: .voip) }
        #expect(error?.code == .topicMismatch)
        #expect(error?.detail.contains(".voip") == true)
    }

    @Test("every push type builds with its own topic")
    func everyType() throws {
        for type in PushType.known {
            let topic = "com.example.app" + (type.topicSuffix ?? "")
            #expect(try request(topic: topic, pushType: type).pushType == type)
        }
    }
}
