import Foundation
import Testing
import TestSupport
@testable import Worker

@Suite("StartupCode: which mappings are code of a file (no I/O)")
struct CodeMappingTests {
    static let smaps = """
        55d0c0000000-55d0c1000000 r--p 00000000 fe:00 1234 /usr/bin/apns-worker
        Size:              16384 kB
        Rss:                 820 kB
        Anonymous:           820 kB
        55d0c1000000-55d0c2e00000 r-xp 01000000 fe:00 1234 /usr/bin/apns-worker
        Size:              30720 kB
        Rss:               17920 kB
        Anonymous:             0 kB
        VmFlags: rd ex mr mw me dw
        7f0000000000-7f0000100000 rw-p 00000000 00:00 0
        Rss:                1024 kB
        Anonymous:          1024 kB
        7f0000200000-7f0000300000 r-xp 00002000 fe:00 99 /opt/lib/with space/libx.so
        Rss:                 400 kB
        Anonymous:             8 kB
        7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0                          [vdso]
        Rss:                   8 kB
        Anonymous:             0 kB
        """

    @Test("r-xp mappings of files, with their resident and anonymous sizes; data, anonymous memory and [vdso] left out")
    func parse() {
        #expect(CodeMapping.parse(Self.smaps) == [
            CodeMapping(start: 0x55d0_c100_0000, end: 0x55d0_c2e0_0000, path: "/usr/bin/apns-worker", residentKiB: 17920, anonymousKiB: 0),
            CodeMapping(start: 0x7f00_0020_0000, end: 0x7f00_0030_0000, path: "/opt/lib/with space/libx.so", residentKiB: 400, anonymousKiB: 8),
        ])
    }

    @Test("a header line that is not a mapping's, or an inverted range, is not a mapping")
    func malformed() {
        #expect(CodeMapping.parse("0-0 r-xp 0 0 0 /bin/x\nRss: 4 kB\n").isEmpty)
        #expect(CodeMapping.parse("zz-10 r-xp 0 0 0 /bin/x\n").isEmpty)
        #expect(CodeMapping.parse("").isEmpty)
    }
}

@Suite("StartupCode.release on this test process (reads /proc)", .io, .serialized)
struct StartupCodeReleaseTests {
    @Test("the code mappings it advises are unmapped: their resident size falls to what ran since")
    func release() throws {
        let before = try Self.releasableResidentKiB()
        let released = try #require(StartupCode.release())
        let after = try Self.releasableResidentKiB()
        // The test binary's code and its shared libraries' (libc at least).
        #expect(released.mappings > 1)
        #expect(released.residentBytes / 1024 >= before / 2, "released \(released.residentBytes / 1024) KiB of \(before)")
        // What comes back in between is only the code run since (this test, and other suites running
        // beside it): a small part of a test binary's resident code.
        #expect(after < before / 2, "resident code \(before) KiB before, \(after) KiB after")
    }

    static func releasableResidentKiB() throws -> Int {
        let smaps = try #require(StartupCode.readProcFile("/proc/self/smaps"))
        return CodeMapping.parse(smaps).filter(\.isReleasable).reduce(0) { $0 + $1.residentKiB }
    }
}
