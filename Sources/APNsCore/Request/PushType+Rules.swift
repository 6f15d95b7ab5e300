/// The per-type rules from the APNs reference: topic suffix, priorities, payload limit, auth.
extension PushType {
    /// The suffix `apns-topic` must carry after the bundle ID; `nil` where the topic is the bundle ID itself
    /// (alert, background) or not derived from one (mdm: the UID from the MDM push certificate).
    public var topicSuffix: String? {
        switch self {
        case .alert, .background, .mdm, .unknown: nil
        case .location: ".location-query"
        case .voip: ".voip"
        case .complication: ".complication"
        case .fileProvider: ".pushkit.fileprovider"
        case .liveActivity: ".push-type.liveactivity"
        case .pushToTalk: ".voip-ptt"
        case .widgets: ".push-type.widgets"
        case .controls: ".push-type.controls"
        }
    }

    /// The priorities APNs accepts for this type (``allows(_:)``).
    public var allowedPriorities: Set<NotificationPriority> {
        Set(NotificationPriority.allCases.filter(allows))
    }

    /// Whether APNs accepts `priority` for this type: background only 5; alert and Live Activities 10
    /// or 5. A test rather than a set, so that the check every job makes allocates nothing.
    public func allows(_ priority: NotificationPriority) -> Bool {
        switch self {
        case .background: priority == .conservePower
        case .alert, .liveActivity: priority == .immediate || priority == .conservePower
        default: true
        }
    }

    /// The priority used when a request names none: 5 for background, 10 otherwise (APNs' own default).
    public var defaultPriority: NotificationPriority {
        self == .background ? .conservePower : .immediate
    }

    /// The largest payload APNs accepts for this type, in bytes: 5120 for VoIP, 4096 for the rest.
    public var maximumPayloadSize: Int {
        self == .voip ? 5120 : 4096
    }

    /// Whether APNs serves this type on token-based connections only.
    public var requiresTokenAuthentication: Bool {
        self == .location || self == .liveActivity
    }

    /// Checks that `topic` fits this push type: the required suffix after a non-empty bundle ID, or, for
    /// alert and background, no other type's suffix (a bundle topic with ".voip" is a VoIP topic); and
    /// that it is made of what a topic may hold (``Topic``).
    public func validate(topic: String) throws(NotificationError) {
        guard !topic.isEmpty else {
            throw NotificationError(.missingTopic, "the topic is empty")
        }
        try Topic.validate(topic)
        if let suffix = topicSuffix {
            // No suffix ends another (".voip" and ".voip-ptt" differ in their last bytes), so the type a
            // topic's suffix names is this one exactly when the topic ends with this one's suffix.
            guard Self.suffixedType(of: topic) == self, topic.utf8.count > suffix.utf8.count else {
                throw NotificationError(.topicMismatch, "push type \(self) needs a topic of the form <bundle id>\(suffix), not \(topic)")
            }
        } else if self == .alert || self == .background, let other = Self.suffixedType(of: topic) {
            throw NotificationError(.topicMismatch, "topic \(topic) is a \(other) topic, but the push type is \(self)")
        }
    }

    /// The type whose suffix `topic` ends with, if any: what every job's topic is checked against.
    /// Byte by byte over suffixes prepared once (a topic is ASCII: ``Topic/validate(_:)``):
    /// `String.hasSuffix` for each of the eight, comparing by canonical equivalence, cost 1,400
    /// instructions a job (callgrind).
    static func suffixedType(of topic: String) -> PushType? {
        var topic = topic
        return topic.withUTF8 { topic in
            suffixes.first { _, suffix in
                topic.count >= suffix.count && topic[(topic.count - suffix.count)...].elementsEqual(suffix)
            }?.type
        }
    }

    /// Each type with a suffix, and its suffix's bytes.
    private static let suffixes: [(type: PushType, suffix: [UInt8])] = known.compactMap { type in
        type.topicSuffix.map { (type, Array($0.utf8)) }
    }
}
