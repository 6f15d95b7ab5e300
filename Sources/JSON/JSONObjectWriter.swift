/// Writes one JSON object straight into bytes, the way `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` writes one: no whitespace, absent values left out, strings escaped like
/// Foundation's `JSONWriter` (see ``JSONStringEscaping``).
///
/// The caller writes the fields in the order it wants them (sorted, to match `.sortedKeys`);
/// `JobResultEncodingTests` hold a result's bytes to `JSONEncoder`'s.
public struct JSONObjectWriter {
    private var bytes: [UInt8] = []
    private var empty = true

    public init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// A string field, left out when `nil`; its name written as prepared once.
    public mutating func field(_ key: JSONKey, _ value: String?) {
        guard let value else { return }
        self.key(key)
        JSONStringEscaping.append(value, to: &bytes)
    }

    /// An integer field, left out when `nil`; its name written as prepared once.
    public mutating func field(_ key: JSONKey, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        appendDecimal(value)
    }

    /// An integer field, left out when `nil`; its name written as prepared once.
    public mutating func field(_ key: JSONKey, _ value: Int?) {
        field(key, value.map { Int64($0) })
    }

    /// A field whose value is already JSON; its name written as prepared once.
    public mutating func field(_ key: JSONKey, json: [UInt8]) {
        self.key(key)
        bytes.append(contentsOf: json)
    }

    /// A string field, left out when `nil`.
    public mutating func field(_ key: String, _ value: String?) {
        guard let value else { return }
        self.key(key)
        JSONStringEscaping.append(value, to: &bytes)
    }

    /// An integer field, left out when `nil`.
    public mutating func field(_ key: String, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        appendDecimal(value)
    }

    /// An integer field, left out when `nil`.
    public mutating func field(_ key: String, _ value: Int?) {
        field(key, value.map { Int64($0) })
    }

    /// A field whose value is already JSON (a nested object or array, written by another writer).
    public mutating func field(_ key: String, json: [UInt8]) {
        self.key(key)
        bytes.append(contentsOf: json)
    }

    /// The finished object.
    public consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// The finished object in an allocation of its own size, for an object kept long after it is
    /// written: the room reserved to write it without growing is given back (one copy).
    public consuming func finishCompact() -> [UInt8] {
        let finished = finish()
        return [UInt8](unsafeUninitializedCapacity: finished.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: finished)
        }
    }

    /// `value` in decimal, as `description` writes it, digit by digit: a generic `description` made
    /// a string per number, a thousand instructions each, a third of encoding a job's result (callgrind).
    private mutating func appendDecimal(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }

    private mutating func key(_ key: JSONKey) {
        separateMember()
        bytes.append(contentsOf: key.quoted)
    }

    private mutating func key(_ key: String) {
        separateMember()
        JSONStringEscaping.append(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// The comma before every member but the first.
    private mutating func separateMember() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
    }
}
