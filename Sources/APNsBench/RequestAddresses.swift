import APNsCore

/// The device tokens and apns-ids a client benchmark's requests go out with, made before the clock
/// starts, so that the client sends what a worker's multicast job sends: each request to one of many
/// devices under an apns-id of its own. Their `:path` and `apns-id` then differ from every earlier
/// request's, and HPACK encodes both afresh (Huffman) instead of naming a table entry; a request
/// repeated unchanged, as h2load's, skips that.
struct RequestAddresses: Sendable {
    private let tokens: [DeviceToken]
    private let apnsIDs: [APNsID]

    /// One request sent unchanged every time.
    static let unchanged = RequestAddresses(tokens: [], apnsIDs: [])

    private init(tokens: [DeviceToken], apnsIDs: [APNsID]) {
        self.tokens = tokens
        self.apnsIDs = apnsIDs
    }

    /// `count` requests spread over `devices` devices in turn, each under a new apns-id.
    init(devices: Int, count: Int) {
        var generator = SystemRandomNumberGenerator()
        // 64 hex digits, valid by construction: the device's number after a leading 1, which keeps them
        // clear of the prefixes the mock answers with errors (`dead`, `bad0`), then 48 random digits.
        tokens = (0..<devices).map { device in
            let words = [UInt64(device) | 1 << 60] + (0..<3).map { _ in generator.next() | 1 << 63 }
            return try! DeviceToken(hex: words.map { String($0, radix: 16) }.joined())
        }
        apnsIDs = (0..<count).map { _ in APNsID.random(using: &generator) }
    }

    /// Request number `index` (from 0): `request` addressed to its device under its apns-id, or
    /// `request` itself when nothing varies.
    func request(_ index: Int, from request: NotificationRequest) -> NotificationRequest {
        guard !tokens.isEmpty else { return request }
        return request.addressed(to: tokens[index % tokens.count], apnsID: apnsIDs[index % apnsIDs.count])
    }
}
