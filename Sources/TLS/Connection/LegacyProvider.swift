internal import COpenSSL
import Synchronization

/// OpenSSL 3's "legacy" provider (RC2, 3DES), needed for PKCS#12 files exported by older tools.
enum LegacyProvider {
    private static let loaded = Mutex(false)

    /// Loads "legacy" next to "default" the first time it is needed; later calls do nothing.
    static func loadOnce() {
        loaded.withLock { loaded in
            guard !loaded else { return }
            loaded = true
            _ = OSSL_PROVIDER_load(nil, "legacy")
            _ = OSSL_PROVIDER_load(nil, "default")
        }
    }
}
