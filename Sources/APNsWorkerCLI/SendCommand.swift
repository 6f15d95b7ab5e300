import APNsClient
import APNsCore
import ArgumentParser
import Foundation
import Logging
import TLS

/// `apns-worker send`: one notification, now, printed as JSON: how a user checks that a key works.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one notification and print APNs' answer as JSON.",
        discussion: """
            Exit status: 0 delivered (APNs accepted it), 1 rejected by APNs, 2 failed: not answered (the JSON says whether APNs may \
            have processed it), 64 bad arguments.
            Token auth: --key-file, --key-id, --team-id. Certificate auth: --p12 with the password in \
            --p12-password-file (or $APNS_P12_PASSWORD), or --certificate with --certificate-key.
            """
    )

    @OptionGroup var credential: CredentialOptions
    @OptionGroup var target: TargetOptions
    @OptionGroup var notification: NotificationOptions

    func run() async throws {
        let request: NotificationRequest
        let credential: APNsCredential
        let client: APNsClient
        do {
            request = try notification.request()
            credential = try self.credential.credential()
            client = try target.client(label: "apns.send")
        } catch {
            print(SendOutput.invalid(error))
            throw ExitCode(64)
        }
        defer { client.shutdown() }
        do {
            let response = try await client.send(request, credential: credential, endpoint: target.endpoint())
            print(SendOutput.response(response, request: request))
            if case .rejected = response { throw ExitCode(1) }
        } catch let error as APNsSendError {
            print(SendOutput.failure(error))
            throw ExitCode(2)
        }
    }
}
