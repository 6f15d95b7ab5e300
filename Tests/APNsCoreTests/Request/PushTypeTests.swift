import Testing
@testable import APNsCore

@Suite("Push types")
struct PushTypeTests {
    static let expected: [(PushType, String, String?)] = [
        (.alert, "alert", nil), (.background, "background", nil), (.location, "location", ".location-query"),
        (.voip, "voip", ".voip"), (.complication, "complication", ".complication"),
        (.fileProvider, "fileprovider", ".pushkit.fileprovider"), (.mdm, "mdm", nil),
        (.liveActivity, "liveactivity", ".push-type.liveactivity"), (.pushToTalk, "pushtotalk", ".voip-ptt"),
        (.widgets, "widgets", ".push-type.widgets"), (.controls, "controls", ".push-type.controls"),
    ]

    @Test("all eleven types have their header value and topic suffix")
    func table() {
        #expect(PushType.known.count == 11)
        for (type, header, suffix) in Self.expected {
            #expect(type.headerValue == header)
            #expect(PushType(headerValue: header) == type)
            #expect(type.topicSuffix == suffix)
        }
    }

    @Test("an unknown header value is kept, not lost", arguments: ["Alert", "hologram", ""])
    func unknownValue(value: String) {
        #expect(PushType(headerValue: value) == .unknown(value))
        #expect(PushType(headerValue: value).headerValue == value)
    }

    @Test("each suffixed type accepts <bundle><suffix> and refuses the bare bundle")
    func suffixes() throws {
        for (type, _, suffix) in Self.expected {
            guard let suffix else { continue }
            try type.validate(topic: "com.example.app" + suffix)
            let error = #expect(throws: NotificationError.self) { try type.validate(topic: "com.example.app") }
            #expect(error?.code == .topicMismatch)
            #expect(throws: NotificationError.self) { try type.validate(topic: suffix) }
        }
    }

    @Test("no type's topic suffix ends another's, so a topic's suffix names one type at most")
    func suffixesAreDistinct() {
        let suffixes = PushType.known.compactMap(\.topicSuffix)
        for (index, suffix) in suffixes.enumerated() {
            for (other, longer) in suffixes.enumerated() where other != index {
                #expect(!longer.hasSuffix(suffix), "\(longer) ends with \(suffix)")
            }
        }
    }

    @Test("alert and background refuse another type's topic", arguments: [PushType.alert, .background])
    func bundleTypes(type: PushType) throws {
        // A near miss of a suffix is a bundle topic; each suffix of the table makes its type's topic.
        for topic in ["com.example.app", "com.example.appvoip", "com.example.app.voip-pt", "com.example.app.push-type.widget"] {
            try type.validate(topic: topic)
        }
        for (other, _, suffix) in Self.expected {
            guard let suffix else { continue }
            let error = #expect(throws: NotificationError.self) { try type.validate(topic: "com.example.app" + suffix) }
            #expect(error?.code == .topicMismatch)
            #expect(error?.description.contains("is a \(other) topic") == true)
        }
    }

    @Test("mdm takes any non-empty topic; an empty topic is MissingTopic for every type")
    func mdmAndEmpty() throws {
        try PushType.mdm.validate(topic: "com.apple.mgmt.External.6e5c8c2a-0b49-4b0d-a6a3-1f2b3c4d5e6f")
        for type in PushType.known {
            let error = #expect(throws: NotificationError.self) { try type.validate(topic: "") }
            #expect(error?.code == .missingTopic)
        }
    }

    @Test("a topic holds only letters, digits, '.', '-' and '_', at most 255 bytes, for every type", arguments: [
        "com.example.app\r\nx: y", "com example", "com.exämple.app", "com.example.app\u{0}", String(repeating: "a", count: 256),
    ])
    func topicCharacters(topic: String) {
        for type in PushType.known {
            let error = #expect(throws: NotificationError.self) { try type.validate(topic: topic + (type.topicSuffix ?? "")) }
            #expect(error?.code == .topicMismatch)
        }
        #expect(throws: Never.self) { try PushType.alert.validate(topic: "Com.Example-App_2") }
    }

    @Test("payload limits: 5120 for VoIP, 4096 for every other type")
    func limits() {
        for type in PushType.known {
            #expect(type.maximumPayloadSize == (type == .voip ? 5120 : 4096))
        }
    }

    @Test("location and Live Activities need token authentication")
    func tokenOnly() {
        #expect(PushType.known.filter(\.requiresTokenAuthentication) == [.location, .liveActivity])
    }
}
