internal import COpenSSL
import NIOConcurrencyHelpers

/// OpenSSL 3's "legacy" provider (RC2, 3DES), needed for PKCS#12 files exported by older tools.
enum LegacyProvider {
    private static let loaded = NIOLockedValueBox(false)
    /// The providers' handles, kept for the life of the process (they are never unloaded): dropped,
    /// the providers would look leaked to LeakSanitizer once OpenSSL's exit handler runs.
    /// `nonisolated(unsafe)`: written once, inside `loaded`'s lock, and never read.
    nonisolated(unsafe) private static var handles: [OpaquePointer?] = []

    /// Loads "legacy" next to "default" the first time it is needed; later calls do nothing.
    static func loadOnce() {
        loaded.withLockedValue { loaded in
            guard !loaded else { return }
            loaded = true
            handles = [OSSL_PROVIDER_load(nil, "legacy"), OSSL_PROVIDER_load(nil, "default")]
        }
    }
}
