/// Why a value cannot be used for its key, in words for the operator (the reader adds the key path).
package struct ValueRefusal: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
