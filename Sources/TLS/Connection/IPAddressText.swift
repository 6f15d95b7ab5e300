#if canImport(Glibc)
import Glibc
#endif

/// Tells IP address literals from host names: certificates name the two in different fields, and SNI
/// carries host names only.
enum IPAddressText {
    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
