internal import COpenSSL

/// Facts about the OpenSSL library this process loaded.
public enum OpenSSLLibrary {
    /// E.g. "OpenSSL 3.0.17 1 Jul 2025".
    public static var version: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }
}
