import Testing
import APNsCore

@Suite("Quoting untrusted text")
struct UntrustedTextTests {
    @Test("control characters, separators and backslashes are escaped; the rest is kept")
    func escaping() {
        #expect(UntrustedText.escaped("plain é 東 😀") == "plain é 東 😀")
        #expect(UntrustedText.escaped("a\r\nb\tc\\d") == #"a\r\nb\tc\\d"#)
        #expect(UntrustedText.escaped("\u{0}\u{1B}\u{7F}\u{85}\u{2028}\u{2029}") == #"\u{0}\u{1B}\u{7F}\u{85}\u{2028}\u{2029}"#)
        #expect(!UntrustedText.escaped("x\ny").contains("\n"))
    }

    @Test("quoted text is cut at the limit with its full size, and its quotes escaped")
    func quoting() {
        #expect(UntrustedText.quoted("abc") == #""abc""#)
        #expect(UntrustedText.quoted(#"say "hi""#) == #""say \"hi\"""#)
        #expect(UntrustedText.quoted(String(repeating: "x", count: 10_000), limit: 4) == #""xxxx…" (10000 bytes)"#)
    }

    @Test("what counts as a control character", arguments: [0x00, 0x0A, 0x1F, 0x7F, 0x80, 0x9F, 0x2028, 0x2029] as [UInt32])
    func controls(value: UInt32) {
        #expect(UntrustedText.isControl(Unicode.Scalar(value)!))
    }

    @Test("and what does not", arguments: [0x20, 0x7E, 0xA0, 0xE9, 0x200B, 0xFEFF, 0x1F600] as [UInt32])
    func notControls(value: UInt32) {
        #expect(!UntrustedText.isControl(Unicode.Scalar(value)!))
    }

    @Test("a string is found to hold a control character wherever it is, as the scalar-by-scalar check finds it", arguments: [
        0x00, 0x09, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xE9, 0x2028, 0x2029, 0x1F600,
    ] as [UInt32])
    func everyPosition(value: UInt32) {
        let scalar = Unicode.Scalar(value)!
        for length in 1...17 {
            for position in 0..<length {
                var scalars = Array(repeating: Unicode.Scalar("a"), count: length)
                scalars[position] = scalar
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars)
                #expect(UntrustedText.containsControl(text) == UntrustedText.isControl(scalar), "\(text.debugDescription)")
                // The generic check, which the String one must agree with.
                #expect(UntrustedText.containsControl(text[...]) == UntrustedText.isControl(scalar))
            }
        }
    }
}
