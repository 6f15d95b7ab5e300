/// What a header field may hold on the wire (RFC 9113 §8.2.1, RFC 9110 §5.5), checked before a request
/// or response is submitted: nghttp2 sends whatever it is given, and a peer that receives a malformed
/// field may end the whole connection — every stream in flight on it — not just the one request.
public enum HTTP2HeaderRules {
    /// Why `header` cannot be sent, or nil. Never quotes the value (it may be a secret or garbage).
    public static func problem(with header: HTTP2Header) -> String? {
        var name = header.name
        if let problem = name.withUTF8({ nameProblem(of: header, $0) }) { return problem }
        var value = header.value
        // Cleared eight bytes at a time in the common case: every field of every request comes here,
        // and a provider token alone is over 200 bytes.
        return value.withUTF8 { hasOnlyFieldBytes($0) ? nil : valueProblem(of: header, $0) }
    }

    private static func nameProblem(of header: HTTP2Header, _ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard !bytes.isEmpty else { return "a header has an empty name" }
        return isName(bytes) ? nil : "header name \(printable(header.name)) is not a lowercase token"
    }

    /// True when `bytes` is a lowercase token, or one after a single colon (a pseudo-header).
    static func isName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        let rest = first == UInt8(ascii: ":") ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes
        return !rest.isEmpty && rest.allSatisfy(isNameByte)
    }

    private static func valueProblem(of header: HTTP2Header, _ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if let byte = bytes.first(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) {
            return "the value of \(header.name) has control character 0x\(String(byte, radix: 16, uppercase: true)) (NUL, CR and LF would break the message)"
        }
        if let first = bytes.first, let last = bytes.last, isSpaceOrTab(first) || isSpaceOrTab(last) {
            return "the value of \(header.name) starts or ends with whitespace"
        }
        return nil
    }

    /// True when `bytes` holds no control character (tab included) and does not start or end with a
    /// space: then the value is certainly valid. False sends it to ``valueProblem(of:_:)``, which also
    /// accepts the tabs this check refuses.
    static func hasOnlyFieldBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, let first = bytes.first, let last = bytes.last else { return true }
        guard first != 0x20, last != 0x20 else { return false }
        let lows: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var offset = 0
        // A word has a byte below 0x20 when (x - 0x20…) & ~x & 0x80… is non-zero, and a 0x7F byte when
        // the same holds for x ^ 0x7F… against 0x01… (exact as yes-or-no: "Bit Twiddling Hacks").
        while offset + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            let deleted = word ^ (0x7F &* lows)
            if (word &- 0x20 &* lows) & ~word & highs != 0 || (deleted &- lows) & ~deleted & highs != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte < 0x20 || byte == 0x7F { return false }
            offset += 1
        }
        return true
    }

    /// Every header of every request passes here: no array literal per call.
    private static func isSpaceOrTab(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// RFC 9110 `tchar`, lowercase only (HTTP/2 names are lowercase).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "!"), UInt8(ascii: "#"),
            UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func printable(_ name: String) -> String {
        name.utf8.count <= 64 && name.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) ? "\"\(name)\"" : "of \(name.utf8.count) bytes"
    }
}
