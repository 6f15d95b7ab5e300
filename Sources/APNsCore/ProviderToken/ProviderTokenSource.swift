public import Foundation
import NIOConcurrencyHelpers

/// Hands out provider tokens for one (team, key), shared by every connection that uses the key.
///
/// A token is reused while it is young enough to be put on a connection (``ProviderTokenPolicy/maximumAgeAtInstall``);
/// after that the next request for a token mints a new one. Connections keep what they were given until
/// their own refresh is due (see ``ConnectionTokenState``), so signing happens a few times an hour per key.
public final class ProviderTokenSource: Sendable {
    public let signer: ProviderTokenSigner
    public let policy: ProviderTokenPolicy
    private let clock: any WallClock
    private let cached = NIOLockedValueBox<ProviderToken?>(nil)

    public init(signer: ProviderTokenSigner, policy: ProviderTokenPolicy, clock: any WallClock = SystemWallClock()) {
        self.signer = signer
        self.policy = policy
        self.clock = clock
    }

    /// The current time on this source's clock.
    public func now() -> Date { clock.now() }

    /// A token that may be installed on a connection now: the shared one while it is young enough and is
    /// not `rejected`, otherwise a newly signed one (which becomes the shared one).
    public func tokenForInstall(excluding rejected: ProviderToken? = nil) throws -> ProviderToken {
        let now = clock.now()
        return try cached.withLockedValue { cached in
            if let token = cached, token != rejected, token.issuedAt <= now,
                token.age(at: now) <= policy.maximumAgeAtInstall
            {
                return token
            }
            let fresh = try signer.token(issuedAt: now)
            cached = fresh
            return fresh
        }
    }
}
