/// Numbers: RFC 8259's grammar, and a value a 64-bit float can hold.
extension JSONCursor {
    struct NumberScan {
        let range: Range<Int>
        /// Written without fraction or exponent.
        let isInteger: Bool
    }

    /// Scans the number that starts here (`-` or a digit).
    mutating func scanNumber() throws(JSONSyntaxError) -> NumberScan {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digitFollows() else { throw numberError(start) }
        // No leading zeros: "0" alone, or 1-9 then digits.
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            guard !digitFollows() else { throw JSONSyntaxError(.invalidNumber, at: start) }
        } else {
            skipDigits()
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digitFollows() else { throw numberError(start) }
            skipDigits()
            isInteger = false
        }
        var hasExponent = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digitFollows() else { throw numberError(start) }
            skipDigits()
            isInteger = false
            hasExponent = true
        }
        // Only an exponent or more digits than a Double's range has can overflow to infinity.
        if hasExponent || index - start > 300, !(Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))?.isFinite ?? false) {
            throw JSONSyntaxError(.numberOutOfRange, at: start)
        }
        return NumberScan(range: start..<index, isInteger: isInteger)
    }

    /// A scanned number as a value: an integer when written as one and in 64 bits, else a Double.
    func numberValue(_ scan: NumberScan) -> JSONValue {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[scan.range]), as: UTF8.self)
        if scan.isInteger, let integer = Int64(text) { return .integer(integer) }
        return .number(Double(text)!)
    }

    /// The end of the document inside a number is "ends unexpectedly"; anything else "invalid number".
    private func numberError(_ start: Int) -> JSONSyntaxError {
        index < bytes.count ? JSONSyntaxError(.invalidNumber, at: start) : error(.unexpectedEnd)
    }

    private func digitFollows() -> Bool {
        index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
    }

    private mutating func skipDigits() {
        while digitFollows() { index += 1 }
    }
}
