internal import Foundation

extension AMQPEndpoint {
    /// Reads a password kept in a file (a mounted secret): the first line, without its line break.
    ///
    /// The error names the file but never its content.
    public static func readPassword(fromFile path: String) throws(AMQPError) -> String {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw AMQPError(.invalidArgument, operation: "read password file \(path)", message: "the file cannot be read as UTF-8 text")
        }
        let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let password = firstLine.hasSuffix("\r") ? firstLine.dropLast() : firstLine
        guard !password.isEmpty else {
            throw AMQPError(.invalidArgument, operation: "read password file \(path)", message: "the file's first line is empty")
        }
        return String(password)
    }
}
