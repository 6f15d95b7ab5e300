import APNsClient
import APNsCore
import ArgumentParser
import Foundation
import JSON
import Logging
import Worker
import TLS

/// Which credential `send` uses.
struct CredentialOptions: ParsableArguments {
    @Option(help: "App Store Connect signing key (.p8) for token auth.") var keyFile: String?
    @Option(help: "The key's 10-character key id.") var keyID: String?
    @Option(help: "Your 10-character team id.") var teamID: String?
    @Flag(help: "Accept a key file readable by group or others.") var allowInsecureKeyPermissions = false
    @Option(help: "Provider certificate as PKCS#12 (.p12) for certificate auth.") var p12: String?
    @Option(help: "File holding the .p12 password (else $APNS_P12_PASSWORD).") var p12PasswordFile: String?
    @Option(help: "Provider certificate as PEM (with --certificate-key).") var certificate: String?
    @Option(help: "PEM private key of --certificate.") var certificateKey: String?

    func credential() throws -> APNsCredential {
        if let keyFile {
            guard let keyID, let teamID else { throw ValidationError("--key-file needs --key-id and --team-id") }
            let signer = try ProviderTokenSigner(teamID: teamID, keyID: keyID, keyFile: keyFile, allowGroupOrOtherAccess: allowInsecureKeyPermissions)
            return APNsCredential(name: "cli", authentication: .token(ProviderTokenSource(signer: signer, policy: try ProviderTokenPolicy())))
        }
        if let p12 {
            let password: String
            if let file = p12PasswordFile {
                password = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .newlines)
            } else if let environment = ProcessInfo.processInfo.environment["APNS_P12_PASSWORD"] {
                password = environment
            } else {
                throw ValidationError("--p12 needs --p12-password-file or APNS_P12_PASSWORD")
            }
            return APNsCredential(name: "cli", authentication: .certificate(.pkcs12(path: p12, password: password)))
        }
        if let certificate, let certificateKey {
            return APNsCredential(name: "cli", authentication: .certificate(.pem(certificatePath: certificate, privateKeyPath: certificateKey)))
        }
        throw ValidationError("give --key-file (token auth), --p12, or --certificate with --certificate-key")
    }
}

/// Where `send` connects.
struct TargetOptions: ParsableArguments {
    /// The default matches `credentials[].environment`'s, so a key `send` proves is proven where the worker will use it.
    @Option(help: "production or development (sandbox); as in the worker's configuration, production by default.") var environment: String = "production"
    @Option(name: .customLong("endpoint"), help: "host:port to use instead of Apple's (a mock server, a proxy).") var endpointOverride: String?
    @Option(help: "Extra CA certificates (PEM) to trust besides the system store.") var caFile: String?
    @Option(help: "Seconds to wait for the answer.") var timeout: Int64 = 10
    @Option(help: "HTTP proxy to tunnel through (CONNECT): http://[user:password@]host:port. Default: $HTTPS_PROXY, unless $NO_PROXY lists the host.")
    var proxy: String?
    @Flag(help: "Log connection events to stderr.") var verbose = false

    /// `--proxy`, else `HTTPS_PROXY` / `https_proxy` with `NO_PROXY` / `no_proxy`, as the worker reads them.
    func httpProxy(environment: [String: String]) throws -> HTTPProxy? {
        let bypass = HTTPProxy.bypassList(environment["NO_PROXY"] ?? environment["no_proxy"])
        guard let url = proxy ?? environment["HTTPS_PROXY"] ?? environment["https_proxy"], !url.isEmpty else { return nil }
        do {
            return try HTTPProxy(url: url, bypass: proxy == nil ? bypass : [])
        } catch {
            throw ValidationError("--proxy \(error)")
        }
    }

    /// A client for one request: one connection, `--ca-file`, the proxy, `--timeout`, and connection
    /// events logged to stderr only with `--verbose`.
    func client(label: String) throws -> APNsClient {
        var configuration = APNsClientConfiguration()
        configuration.additionalTrustedCAFile = caFile
        configuration.proxy = try httpProxy(environment: ProcessInfo.processInfo.environment)
        configuration.connectionsPerPool = 1
        configuration.requestTimeout = .seconds(timeout)
        var logger = Logger(label: label)
        logger.logLevel = verbose ? .debug : .critical
        return APNsClient(configuration: configuration, logger: logger)
    }

    func endpoint() throws -> APNsEndpoint {
        if let endpointOverride {
            let parts = endpointOverride.split(separator: ":")
            guard parts.count == 2, let port = Int(parts[1]) else { throw ValidationError("--endpoint must be host:port") }
            return APNsEndpoint(host: String(parts[0]), port: port)
        }
        guard let environment = APNsEnvironment(rawValue: environment) else {
            throw ValidationError("--environment must be production or development")
        }
        return APNsEndpoint(environment: environment)
    }
}

/// What `send` sends.
struct NotificationOptions: ParsableArguments {
    @Option(help: "Device token, hex.") var deviceToken: String
    @Option(help: "apns-topic: bundle id plus the push type's suffix.") var topic: String
    @Option(help: "alert, background, voip, liveactivity, …") var pushType: String = "alert"
    @Option(help: "10, 5 or 1 (default by push type).") var priority: String?
    @Option(help: "UNIX time until which APNs may retry (0: once).") var expiration: Int64?
    @Option(help: "apns-collapse-id (≤ 64 bytes).") var collapseID: String?
    @Option(help: "apns-id (lowercase UUID; random by default).") var apnsID: String?
    @Option(help: "The JSON payload.") var payload: String = #"{"aps":{"alert":"Hello from apns-worker"}}"#
    @Option(help: "Read the JSON payload from this file instead.") var payloadFile: String?

    func request() throws -> NotificationRequest {
        let body = try payloadFile.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) } ?? Array(payload.utf8)
        try Self.checkPayload(body, option: payloadFile == nil ? "--payload" : "--payload-file")
        return try NotificationRequest(
            deviceToken: DeviceToken(hex: deviceToken),
            topic: topic,
            pushType: PushType(headerValue: pushType),
            priority: priority.map(NotificationPriority.init(headerValue:)),
            expiration: expiration.map(NotificationExpiration.init(epochSeconds:)),
            collapseID: collapseID.map(CollapseID.init),
            apnsID: try apnsID.map(APNsID.init) ?? APNsID.random(),
            payload: body
        )
    }

    /// A payload APNs would refuse as 400 `BadRequestPayload` is refused here, as the worker refuses a
    /// job's: by the same strict reader, before any connection.
    static func checkPayload(_ body: [UInt8], option: String) throws(SendInputError) {
        let kind: JSONKind
        do {
            kind = try JSONReader.validate(body)
        } catch {
            throw SendInputError(reason: JobError.invalidJSON, detail: "\(option) is not JSON: \(error)")
        }
        guard kind == .object else {
            throw SendInputError(reason: JobError.invalidField, detail: "\(option) must be a JSON object, not \(kind)")
        }
    }
}

/// Input `send` refuses before connecting, with the code a job with the same fault would fail with.
struct SendInputError: Error, CustomStringConvertible {
    let reason: String
    let detail: String
    var description: String { detail }
}
