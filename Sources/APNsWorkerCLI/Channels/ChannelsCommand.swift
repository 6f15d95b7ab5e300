import APNsClient
import APNsCore
import ArgumentParser
import Foundation
import Logging

/// `apns-worker channels create|get|delete|list`: iOS 18 broadcast channels, managed by hand against
/// Apple's channel-management hosts (or `--endpoint`), with the same credential options as `send`.
struct ChannelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channels",
        abstract: "Create, read, delete or list an app's broadcast channels (iOS 18 Live Activities).",
        discussion: """
            Each prints APNs' answer as one JSON object. Exit status: 0 accepted, 1 refused by APNs, \
            2 not answered, 64 bad arguments. The host is api-manage-broadcast(.sandbox).push.apple.com \
            (port 2196 production, 2195 development) unless --endpoint says otherwise.
            """,
        subcommands: [Create.self, Get.self, Delete.self, List.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a channel; prints its id.")
        @OptionGroup var options: ChannelOptions
        @Option(help: "0: no message stored (broadcasts need expiration 0); 1: the most recent one stored.") var policy: Int = 0

        func run() async throws {
            guard let policy = MessageStoragePolicy(rawValue: policy) else { throw ValidationError("--policy must be 0 or 1") }
            try await options.run(.create(policy))
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Read a channel's settings.")
        @OptionGroup var options: ChannelOptions
        @Option(help: "The channel's id, as create printed it.") var channelID: String

        func run() async throws {
            try await options.run(.read(try ChannelOptions.channel(channelID)))
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a channel.")
        @OptionGroup var options: ChannelOptions
        @Option(help: "The channel's id.") var channelID: String

        func run() async throws {
            try await options.run(.delete(try ChannelOptions.channel(channelID)))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the app's channels in this environment.")
        @OptionGroup var options: ChannelOptions

        func run() async throws {
            try await options.run(.list)
        }
    }
}

/// What every `channels` subcommand takes: the credential, where to connect, the app.
struct ChannelOptions: ParsableArguments {
    @OptionGroup var credential: CredentialOptions
    @OptionGroup var target: TargetOptions
    @Option(help: "The app's bundle id.") var bundleID: String

    static func channel(_ text: String) throws -> ChannelID {
        do {
            return try ChannelID(text)
        } catch {
            throw ValidationError("--channel-id: \(error.detail)")
        }
    }

    func run(_ operation: ChannelRequest.Operation) async throws {
        let request: ChannelRequest
        let credential: APNsCredential
        let endpoint: APNsEndpoint
        let client: APNsClient
        do {
            request = try ChannelRequest(bundleID: bundleID, operation: operation, requestID: APNsID.random())
            credential = try self.credential.credential()
            endpoint = try target.channelEndpoint()
            client = try target.client(label: "apns.channels")
        } catch {
            print(SendOutput.invalid(error))
            throw ExitCode(64)
        }
        defer { client.shutdown() }
        do {
            let response = try await client.send(request, credential: credential, endpoint: endpoint)
            print(ChannelOutput.response(response, request: request))
            if case .rejected = response { throw ExitCode(1) }
        } catch let error as APNsSendError {
            print(SendOutput.failure(error))
            throw ExitCode(2)
        }
    }
}

extension TargetOptions {
    /// `--endpoint`, else Apple's channel-management host for `--environment`.
    func channelEndpoint() throws -> APNsEndpoint {
        if endpointOverride != nil { return try endpoint() }
        guard let environment = APNsEnvironment(rawValue: environment) else {
            throw ValidationError("--environment must be production or development")
        }
        return .channelManagement(environment)
    }
}
