/// Builds the key paths problems are reported under: `amqp.tls.ca_file`, `credentials[1].topics[0]`.
enum KeyPath {
    static func child(_ parent: String, _ key: String) -> String {
        parent.isEmpty ? key : "\(parent).\(key)"
    }

    static func index(_ parent: String, _ index: Int) -> String {
        "\(parent)[\(index)]"
    }
}
