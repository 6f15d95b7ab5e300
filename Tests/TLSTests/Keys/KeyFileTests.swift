import Testing
import TestSupport
@testable import TLS

@Suite("Key files")
struct KeyFileTests {
    @Test("a private key file (0600 or 0400) is read")
    func privateFile() throws {
        for mode in [0o600, 0o400] {
            let path = try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8", mode: mode)
            #expect(try KeyFile.read(path: path).contains("BEGIN PRIVATE KEY"))
        }
    }

    @Test("a key file readable by group or others is refused unless allowed", arguments: [0o644, 0o640, 0o604])
    func groupOrOtherReadable(mode: Int) throws {
        let path = try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8", mode: mode)
        let error = #expect(throws: KeyError.self) { try KeyFile.read(path: path) }
        #expect(error?.code == .insecurePermissions)
        #expect(error?.message.contains(String(mode, radix: 8)) == true)
        #expect(try KeyFile.read(path: path, allowGroupOrOtherAccess: true).contains("PRIVATE KEY"))
    }

    @Test("a missing file is an unreadable-file error naming the path")
    func missingFile() {
        let error = #expect(throws: KeyError.self) { try KeyFile.read(path: "/nonexistent/AuthKey.p8") }
        #expect(error?.code == .unreadableFile)
        #expect(error?.message.contains("/nonexistent/AuthKey.p8") == true)
    }
}
