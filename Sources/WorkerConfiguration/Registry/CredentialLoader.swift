import APNsCore
import Foundation
import TLS

/// Turns one credential's settings into an authentication, reading and checking its files, and maps each
/// failure to the key whose file or value caused it.
enum CredentialLoader {
    /// What a credential loads to: how it authenticates and, for a certificate, when it expires.
    struct Loaded {
        let authentication: APNsCredential.Authentication
        let certificateNotAfter: Date?
    }

    static func authentication(for kind: CredentialKind, path: String, clock: any WallClock) throws(ConfigurationProblems) -> Loaded {
        switch kind {
        case let .token(teamID, keyID, keyFile, allowInsecure, refreshAge):
            return Loaded(
                authentication: try token(teamID: teamID, keyID: keyID, keyFile: keyFile, allowInsecure: allowInsecure, refreshAge: refreshAge, path: path, clock: clock),
                certificateNotAfter: nil
            )
        case let .pkcs12(file, passwordFile):
            var password = ""
            if let passwordFile {
                do {
                    password = try SecretFile.read(passwordFile)
                } catch {
                    throw problem(KeyPath.child(path, "p12_password_file"), error.message)
                }
            }
            return try certificate(.pkcs12(path: file, password: password), path: path, password: password) { _ in "p12_file" }
        case let .pem(certificateFile, keyFile):
            do {
                _ = try KeyFile.read(path: keyFile)
            } catch {
                throw problem(KeyPath.child(path, "key_file"), describe(error, certificate: true))
            }
            return try certificate(.pem(certificatePath: certificateFile, privateKeyPath: keyFile), path: path, password: "") { message in
                message.contains(certificateFile) ? "certificate_file" : "key_file"
            }
        }
    }

    private static func token(
        teamID: String, keyID: String, keyFile: String, allowInsecure: Bool, refreshAge: TimeInterval, path: String, clock: any WallClock
    ) throws(ConfigurationProblems) -> APNsCredential.Authentication {
        let policy: ProviderTokenPolicy
        do {
            policy = try ProviderTokenPolicy(refreshAge: refreshAge)
        } catch {
            throw problem(KeyPath.child(path, "refresh_age"), error.problem)
        }
        do {
            let signer = try ProviderTokenSigner(teamID: teamID, keyID: keyID, keyFile: keyFile, allowGroupOrOtherAccess: allowInsecure)
            return .token(ProviderTokenSource(signer: signer, policy: policy, clock: clock))
        } catch let error as ConfigurationError {
            throw problem(KeyPath.child(path, error.setting == "team id" ? "team_id" : "key_id"), error.problem)
        } catch {
            throw problem(KeyPath.child(path, "key_file"), describe(error, certificate: false))
        }
    }

    /// Opens the identity in a throwaway TLS context: the same code the client will run, so what loads
    /// here loads at connect time. `key` names the key a failure message belongs to.
    private static func certificate(
        _ identity: TLSIdentity, path: String, password: String, key: (String) -> String
    ) throws(ConfigurationProblems) -> Loaded {
        let context: TLSContext
        do {
            context = try TLSContext(client: TLSClientConfiguration(trustsSystemStore: true, identity: identity))
        } catch {
            var message = describe(error, certificate: true)
            // OpenSSL's messages carry no password today; this keeps it so if that ever changes.
            if !password.isEmpty { message = message.replacingOccurrences(of: password, with: "<password>") }
            throw problem(KeyPath.child(path, key(message)), message)
        }
        return Loaded(authentication: .certificate(identity), certificateNotAfter: context.clientCertificateNotAfter)
    }

    private static func describe(_ error: any Error, certificate: Bool) -> String {
        switch error {
        case let error as KeyError where error.code == .insecurePermissions:
            certificate
                ? error.message.replacingOccurrences(of: ", or allow it explicitly", with: " (certificate credentials allow no exception)")
                : error.message.replacingOccurrences(of: "allow it explicitly", with: "set allow_insecure_key_permissions: true")
        case let error as KeyError: error.message
        case let error as TLSError: error.message
        default: "\(error)"
        }
    }

    private static func problem(_ path: String, _ message: String) -> ConfigurationProblems {
        ConfigurationProblems([ConfigurationProblem(path: path, message: message)])
    }
}
