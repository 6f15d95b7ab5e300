import Testing
@testable import APNsCore

@Suite("Header values: collapse id, apns-id, expiration")
struct HeaderValueTests {
    @Test("a collapse id of 64 bytes passes; 65 bytes is BadCollapseId")
    func collapseIDLength() throws {
        #expect(try CollapseID(String(repeating: "c", count: 64)).value.utf8.count == 64)
        let error = #expect(throws: NotificationError.self) { try CollapseID(String(repeating: "c", count: 65)) }
        #expect(error?.code == .badCollapseID)
    }

    @Test("the collapse id limit counts UTF-8 bytes, not characters")
    func collapseIDBytes() {
        // 22 three-byte characters: 22 characters, 66 bytes.
        #expect(throws: NotificationError.self) { try CollapseID(String(repeating: "€", count: 22)) }
        #expect(throws: NotificationError.self) { try CollapseID("") }
    }

    @Test("a collapse id must fit an HTTP/2 header value: no control characters, no space at either end", arguments: [
        "a\r\nb", "\u{0}", "tab\t", " lead", "trail ", "\u{7F}", "\u{85}", "\u{2028}",
    ])
    func collapseIDCharacters(value: String) {
        let error = #expect(throws: NotificationError.self) { try CollapseID(value) }
        #expect(error?.code == .badCollapseID)
        #expect(error.map { !UntrustedText.containsControl($0.detail) } == true)
    }

    @Test("spaces inside and any script are fine in a collapse id")
    func collapseIDText() throws {
        #expect(try CollapseID("score update 東京 😀").value == "score update 東京 😀")
    }

    @Test("apns-id accepts canonical lowercase UUIDs only")
    func apnsID() throws {
        #expect(try APNsID("123e4567-e89b-42d3-a456-426614174000").value == "123e4567-e89b-42d3-a456-426614174000")
        for bad in [
            "123E4567-E89B-42D3-A456-426614174000", "123e4567e89b42d3a456426614174000",
            "123e4567-e89b-42d3-a456-42661417400", "123e4567-e89b-42d3-a456-4266141740000",
            "123e4567-e89b-42d3-a456_426614174000", "g23e4567-e89b-42d3-a456-426614174000", "",
        ] {
            let error = #expect(throws: NotificationError.self) { try APNsID(bad) }
            #expect(error?.code == .badMessageID)
        }
    }

    @Test("random apns-ids are canonical version-4 UUIDs and distinct")
    func randomIDs() throws {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<100).map { _ in APNsID.random() } + (0..<100).map { _ in APNsID.random(using: &generator) }
        #expect(Set(ids).count == 200)
        for id in ids {
            #expect(try APNsID(id.value) == id)
            #expect(Array(id.value.utf8)[14] == UInt8(ascii: "4"))
            #expect("89ab".utf8.contains(Array(id.value.utf8)[19]))
        }
    }

    @Test("apns-id from bytes stamps version and variant")
    func idFromBytes() {
        let id = APNsID(bytes: [UInt8](repeating: 0xFF, count: 16), version: 8)
        #expect(id.value == "ffffffff-ffff-8fff-bfff-ffffffffffff")
        // Every hex digit, in place, and the result passes the canonical-form check.
        let digits = APNsID(bytes: [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF], version: 4)
        #expect(digits.value == "01234567-89ab-4def-8123-456789abcdef")
        #expect((try? APNsID(digits.value)) == digits)
    }

    @Test("expiration: 0 is immediately, digits are a time, anything else is BadExpirationDate")
    func expiration() throws {
        #expect(try NotificationExpiration(headerValue: "0") == .immediately)
        #expect(try NotificationExpiration(headerValue: "1800000000") == .at(epochSeconds: 1_800_000_000))
        #expect(try NotificationExpiration(epochSeconds: 0).headerValue == "0")
        for bad in ["", "-1", "1.5", "soon", " 12", "99999999999999999999999"] {
            let error = #expect(throws: NotificationError.self) { try NotificationExpiration(headerValue: bad) }
            #expect(error?.code == .badExpirationDate)
        }
        #expect(throws: NotificationError.self) { try NotificationExpiration(epochSeconds: -5) }
    }
}
