/// What a provider token says once its structure, key, issuer and signature have checked out.
///
/// The time checks (expired, issued in the future) are not part of it: they depend on when it is used.
struct VerifiedProviderToken: Hashable, Sendable {
    let keyID: String
    let teamID: String
    /// The `iat` claim, in whole epoch seconds.
    let issuedAtSeconds: Int64
}
