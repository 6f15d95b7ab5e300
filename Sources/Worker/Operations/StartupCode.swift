import Foundation
import Glibc

/// Gives back the code pages only start-up ran, once the worker is consuming.
///
/// Start-up runs code that a consuming worker never runs again: argument parsing, YAML, the
/// configuration's checks, the broker's handshake and the topology's declarations. The kernel maps
/// executable pages in windows (64 KiB by default, whole large folios where the file system has them),
/// so that scattered code keeps most of the binary's text resident: 17.5 of its 30 MiB while 10,000
/// jobs are in flight, about a third of the worker's RSS.
///
/// Advising `MADV_DONTNEED` on the read-only code mappings of files unmaps them; the pages stay in the
/// page cache, and those the worker runs from then on come back as minor faults. A mapping holding
/// anonymous pages (a debugger's breakpoint, a text relocation) is left alone: there the advice would
/// drop a private copy instead of a mapping of the file.
public enum StartupCode {
    /// What ``release()`` unmapped.
    public struct Release: Sendable, Equatable {
        /// The code mappings advised.
        public var mappings: Int
        /// Their resident size just before, in bytes.
        public var residentBytes: Int
    }

    /// Unmaps this process's file-backed code (`r-xp` mappings in `/proc/self/smaps` with no
    /// anonymous pages). Returns `nil` where `/proc` cannot be read.
    @discardableResult
    public static func release() -> Release? {
        guard let smaps = readProcFile("/proc/self/smaps") else { return nil }
        var release = Release(mappings: 0, residentBytes: 0)
        for mapping in CodeMapping.parse(smaps) where mapping.isReleasable {
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            guard madvise(start, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 else { continue }
            release.mappings += 1
            release.residentBytes += mapping.residentKiB * 1024
        }
        return release
    }

    /// The whole of a `/proc` file. They report a size of 0, and `String(contentsOfFile:)` then stops
    /// after its first read (about 4 KiB of smaps' tens); a file handle reads to the end.
    static func readProcFile(_ path: String) -> String? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        guard let data = try? file.readToEnd() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// One file-backed code mapping (`r-xp`) of `/proc/PID/smaps`, with the sizes that decide whether it
/// may be released.
struct CodeMapping: Equatable {
    var start: UInt
    var end: UInt
    var path: String
    var residentKiB = 0
    var anonymousKiB = 0

    /// Whether advising it away only unmaps the file: with an anonymous page (a private copy), the
    /// advice would drop that copy instead.
    var isReleasable: Bool { anonymousKiB == 0 }

    /// The code mappings of an smaps text, in its order. `[vdso]` and other unnamed mappings are not
    /// files and are left out.
    static func parse(_ smaps: String) -> [CodeMapping] {
        var mappings: [CodeMapping] = []
        var current: CodeMapping?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let header = header(fields) {
                if let current { mappings.append(current) }
                current = header
            } else if fields.count >= 2, current != nil, let kiB = Int(fields[1]) {
                switch fields[0] {
                case "Rss:": current?.residentKiB = kiB
                case "Anonymous:": current?.anonymousKiB = kiB
                default: break
                }
            } else if fields.first?.contains("-") == true {
                // Another kind of mapping: what follows is not a code mapping's.
                if let current { mappings.append(current) }
                current = nil
            }
        }
        if let current { mappings.append(current) }
        return mappings
    }

    /// A header line (`start-end perms offset dev inode path`) of a code mapping of a file.
    private static func header(_ fields: [Substring]) -> CodeMapping? {
        guard fields.count >= 6, fields[1] == "r-xp", fields[5].hasPrefix("/") else { return nil }
        let bounds = fields[0].split(separator: "-")
        guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), start < end else { return nil }
        return CodeMapping(start: start, end: end, path: fields[5...].joined(separator: " "))
    }
}
