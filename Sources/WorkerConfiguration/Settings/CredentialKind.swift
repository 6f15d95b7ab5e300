public import Foundation

/// How a credential authenticates: a signing key, or a client certificate in one of two containers.
public enum CredentialKind: Sendable, Hashable {
    /// `type: token`: an App Store Connect `.p8` key signing provider tokens.
    case token(teamID: String, keyID: String, keyFile: String, allowInsecureKeyPermissions: Bool, refreshAge: TimeInterval)
    /// `type: certificate` with `p12_file`: a PKCS#12 bundle, its password in `passwordFile` (none: empty).
    case pkcs12(file: String, passwordFile: String?)
    /// `type: certificate` with `certificate_file` and `key_file`: PEM files.
    case pem(certificateFile: String, keyFile: String)

    /// The `type` value of this kind in the file.
    public var typeName: String {
        switch self {
        case .token: "token"
        case .pkcs12, .pem: "certificate"
        }
    }
}
