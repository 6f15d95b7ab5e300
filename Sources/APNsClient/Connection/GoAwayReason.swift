internal import JSON

/// The `reason` in a GOAWAY's debug data (`{"reason":"Shutdown"}`), or a placeholder when there is none.
enum GoAwayReason {
    static func parse(_ debugData: [UInt8]) -> String {
        guard !debugData.isEmpty else { return "(none)" }
        let reading = JSONReader.readObject(debugData)
        guard reading.error == nil, let reason = reading.members["reason"].flatMap(reading.members.string) else { return "(unparsed)" }
        return reason
    }
}
