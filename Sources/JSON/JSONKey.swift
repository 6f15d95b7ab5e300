/// A member name quoted, escaped and followed by its colon once, for a writer that puts the same
/// names into every object it writes: a worker writes about fifteen into every result, and escaping
/// each again was a third of writing one (callgrind, `scripts/bench-instructions.sh`).
public struct JSONKey: Sendable {
    /// `"name":` as written.
    let quoted: [UInt8]

    public init(_ name: String) {
        var quoted: [UInt8] = []
        JSONStringEscaping.append(name, to: &quoted)
        quoted.append(UInt8(ascii: ":"))
        self.quoted = quoted
    }
}
