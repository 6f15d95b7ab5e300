import HTTP2

/// The header values validation looks at, gathered in one pass that also notices repeated headers.
struct RequestHeaderFields {
    var method: String?
    var path: String?
    var authorization: String?
    var pushType: String?
    var topic: String?
    var priority: String?
    var expiration: String?
    var collapseID: String?
    var apnsID: String?
    /// Whether `authorization` or an `apns-*` header appeared more than once (APNs: `DuplicateHeaders`).
    private(set) var hasDuplicates = false

    init(_ headers: [HTTP2Header]) {
        // Unknown apns-* names are rare; the array only allocates when one appears.
        var otherAPNsNames: [String] = []
        for header in headers {
            switch header.name {
            // nghttp2 already refuses repeated pseudo-headers, so the first one is the only one.
            case ":method": method = method ?? header.value
            case ":path": path = path ?? header.value
            case "authorization": Self.store(header.value, in: &authorization, duplicate: &hasDuplicates)
            case "apns-push-type": Self.store(header.value, in: &pushType, duplicate: &hasDuplicates)
            case "apns-topic": Self.store(header.value, in: &topic, duplicate: &hasDuplicates)
            case "apns-priority": Self.store(header.value, in: &priority, duplicate: &hasDuplicates)
            case "apns-expiration": Self.store(header.value, in: &expiration, duplicate: &hasDuplicates)
            case "apns-collapse-id": Self.store(header.value, in: &collapseID, duplicate: &hasDuplicates)
            case "apns-id": Self.store(header.value, in: &apnsID, duplicate: &hasDuplicates)
            default:
                guard header.name.hasPrefix("apns-") else { continue }
                if otherAPNsNames.contains(header.name) { hasDuplicates = true } else { otherAPNsNames.append(header.name) }
            }
        }
    }

    private static func store(_ value: String, in field: inout String?, duplicate: inout Bool) {
        if field == nil { field = value } else { duplicate = true }
    }
}
