import APNsCore
import Foundation

/// Certificate and provider-token authentication, with APNs' per-connection token rules.
extension RequestValidator {
    /// Who the request comes from. A client certificate makes `authorization` irrelevant; without one the
    /// request needs a valid provider token of the connection's team, changed no sooner than APNs allows.
    func authenticate(_ authorization: String?, auth: inout ConnectionAuthState) throws(ValidationRejection) -> AuthenticatedPrincipal {
        if let bundleID = auth.clientCertificateBundleID { return .certificate(bundleID: bundleID) }
        guard let authorization else { throw ValidationRejection(.missingProviderToken) }
        let token = try verifiedToken(authorization, auth: &auth)
        if let bound = auth.boundTeamID, bound != token.teamID {
            // APNs serves one team per connection; another team's token was observed to draw this reason.
            throw ValidationRejection(.invalidProviderToken)
        }
        let now = clock.now()
        let age = now.timeIntervalSince1970 - TimeInterval(token.issuedAtSeconds)
        // Checked on every request, so a connection that keeps its token past the hour is refused too.
        guard age <= ProviderTokenPolicy.maximumTokenAge else { throw ValidationRejection(.expiredProviderToken) }
        guard age >= -Self.allowedFutureSkew else { throw ValidationRejection(.invalidProviderToken) }
        if authorization != auth.currentAuthorization {
            // The first token on a connection is an installation; only later ones count as changes.
            if let installedAt = auth.currentTokenInstalledAt,
                now.timeIntervalSince(installedAt) < ProviderTokenPolicy.minimumChangeInterval
            {
                throw ValidationRejection(.tooManyProviderTokenUpdates)
            }
            // Installed once authenticated, whatever later checks say: the client now uses this token here.
            auth.install(token, authorization: authorization, at: now)
        }
        return .team(id: token.teamID)
    }

    /// The token in `authorization`, verified at most once while the connection's cache remembers it.
    private func verifiedToken(_ authorization: String, auth: inout ConnectionAuthState) throws(ValidationRejection) -> VerifiedProviderToken {
        if let known = auth.verifiedToken(for: authorization) { return known }
        let verified = Self.bearerJWT(authorization).flatMap(verifier.verify(jwt:))
        auth.recordVerification(of: verified, for: authorization)
        guard let verified else { throw ValidationRejection(.invalidProviderToken) }
        return verified
    }

    /// The JWT of `bearer <JWT>`; the scheme is matched without regard to case, as HTTP auth schemes are.
    static func bearerJWT(_ authorization: String) -> Substring? {
        let scheme = "bearer "
        guard authorization.utf8.count > scheme.utf8.count,
            authorization.prefix(scheme.count).lowercased() == scheme
        else { return nil }
        return authorization.dropFirst(scheme.count)
    }
}
