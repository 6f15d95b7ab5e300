import Foundation

/// The `reason` in a GOAWAY's debug data (`{"reason":"Shutdown"}`), or a placeholder when there is none.
enum GoAwayReason {
    static func parse(_ debugData: [UInt8]) -> String {
        guard !debugData.isEmpty else { return "(none)" }
        if let object = try? JSONSerialization.jsonObject(with: Data(debugData)) as? [String: Any],
            let reason = object["reason"] as? String
        {
            return reason
        }
        return "(unparsed)"
    }
}
