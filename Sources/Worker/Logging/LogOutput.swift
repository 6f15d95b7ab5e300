import Foundation

/// Where a log handler writes its finished lines: standard error, or a test's collector.
public struct LogOutput: Sendable {
    let write: @Sendable ([UInt8]) -> Void

    public init(_ write: @escaping @Sendable ([UInt8]) -> Void) {
        self.write = write
    }

    /// Standard error, one `write` per line so lines from several threads never interleave.
    public static let standardError = LogOutput { line in FileHandle.standardError.write(Data(line)) }
}
