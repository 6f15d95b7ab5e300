internal import COpenSSL
public import Foundation

extension TLSContext {
    /// When the client certificate installed in this context stops being valid (its `notAfter`), or
    /// nil when the context has no client certificate. APNs refuses an expired certificate at the
    /// handshake, so this is the date an operator must renew it by.
    public var clientCertificateNotAfter: Date? {
        guard let certificate = SSL_CTX_get0_certificate(context), let notAfter = X509_get0_notAfter(certificate) else { return nil }
        var fields = tm()
        guard ASN1_TIME_to_tm(notAfter, &fields) == 1 else { return nil }
        // ASN1_TIME_to_tm fills the fields in UTC; timegm reads them as UTC.
        return Date(timeIntervalSince1970: TimeInterval(timegm(&fields)))
    }
}
