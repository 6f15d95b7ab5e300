internal import CNGHTTP2

/// Facts about the nghttp2 library this process loaded.
public enum HTTP2Library {
    /// The version string of the loaded libnghttp2, e.g. "1.52.0".
    public static var version: String {
        guard let info = nghttp2_version(0) else { return "unknown" }
        return String(cString: info.pointee.version_str)
    }

    /// The version of the headers this module was compiled against.
    public static var headerVersion: String { String(cString: CNGHTTP2_header_version()) }

    /// HTTP/2's initial flow-control window (RFC 9113 §6.9.2): 65,535 bytes.
    public static var initialWindowSize: UInt32 { CNGHTTP2_initial_window_size() }
}
