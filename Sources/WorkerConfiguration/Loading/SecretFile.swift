import Foundation

/// Reads secrets kept in files (passwords), so they need not sit in the configuration or the environment.
package enum SecretFile {
    /// The file's text without trailing line breaks (`echo secret > file` adds one).
    ///
    /// The file's mode is not checked: the key material these passwords unlock is, by the TLS layer.
    package static func read(_ path: String) throws(ValueRefusal) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValueRefusal("cannot read \(path)")
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw ValueRefusal("\(path) is not UTF-8 text")
        }
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
