internal import COpenSSL

/// The parts of a peer's certificate that decide what it may do: its subject's common name and UID.
///
/// An APNs provider certificate names its bundle ID in the subject UID ("Apple Push Services: <bundle>").
public struct PeerCertificate: Hashable, Sendable {
    public let commonName: String?
    public let userID: String?

    init(_ certificate: OpaquePointer) {
        let subject = X509_get_subject_name(certificate)
        commonName = Self.entry(subject, NID_commonName)
        userID = Self.entry(subject, NID_userId)
    }

    private static func entry(_ name: OpaquePointer?, _ nid: Int32) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry),
            let bytes = ASN1_STRING_get0_data(data)
        else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(data))), as: UTF8.self)
    }
}
