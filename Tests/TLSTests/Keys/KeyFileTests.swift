import Foundation
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

    @Test("a key file readable by others is refused unless allowed, and the error says how to fix it", arguments: [0o644, 0o604])
    func otherReadable(mode: Int) throws {
        let path = try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8", mode: mode)
        let error = #expect(throws: KeyError.self) { try KeyFile.read(path: path) }
        #expect(error?.code == .insecurePermissions)
        #expect(error?.message.contains(String(mode, radix: 8)) == true)
        #expect(error?.message.contains("defaultMode 0400") == true, "says how in Kubernetes: \(error?.message ?? "")")
        #expect(try KeyFile.read(path: path, allowGroupOrOtherAccess: true).contains("PRIVATE KEY"))
    }

    @Test("a key file is judged by what a symbolic link points at, as a Kubernetes Secret mounts it")
    func throughASymbolicLink() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keylink-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (mode, readable) in [(0o400, true), (0o644, false)] {
            let target = try Fixtures.privateCopy(of: "keys/AuthKey_TESTKEY001.p8", mode: mode)
            let link = folder.appendingPathComponent("key-\(String(mode, radix: 8)).p8").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            if readable {
                #expect(try KeyFile.read(path: link).contains("PRIVATE KEY"), "a 0777 link to a 0400 file is private")
            } else {
                #expect(throws: KeyError.self) { try KeyFile.read(path: link) }
            }
        }
    }

    @Test("group read: private when the group is this process's own and has no other member (Kubernetes' fsGroup)")
    func groupReadRule() {
        let own = KeyFileAccess(mode: 0o440, fileGroup: 10001, processGroup: 10001, groupHasOtherMembers: false)
        #expect(own.exposure == nil)
        #expect(KeyFileAccess(mode: 0o440, fileGroup: 100, processGroup: 10001, groupHasOtherMembers: false).exposure?.contains("not this process's group") == true)
        #expect(KeyFileAccess(mode: 0o640, fileGroup: 100, processGroup: 100, groupHasOtherMembers: true).exposure?.contains("other accounts") == true)
        #expect(KeyFileAccess(mode: 0o444, fileGroup: 10001, processGroup: 10001, groupHasOtherMembers: false).exposure == "readable by others")
        #expect(KeyFileAccess(mode: 0o600, fileGroup: 100, processGroup: 10001, groupHasOtherMembers: true).exposure == nil)
    }

    @Test("a missing file is an unreadable-file error naming the path")
    func missingFile() {
        let error = #expect(throws: KeyError.self) { try KeyFile.read(path: "/nonexistent/AuthKey.p8") }
        #expect(error?.code == .unreadableFile)
        #expect(error?.message.contains("/nonexistent/AuthKey.p8") == true)
    }
}
