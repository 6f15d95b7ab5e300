import AMQP
import ArgumentParser
import DeadLetterTools
import Foundation
import Logging
import Worker
import WorkerConfiguration

/// `apns-worker dead-letters list|replay|purge`: triage the dead-letter queue and send jobs back.
struct DeadLettersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dead-letters",
        abstract: "List, replay or purge the jobs in the dead-letter queue (topology.dead_queue).",
        discussion: """
            Every letter looked at and not taken stays in the queue, in its order. Replay republishes a job \
            to the jobs exchange with its id (so its apns-id is unchanged), its attempt count reset and a \
            replayed-at header, and removes the letter only after the broker confirmed the copy. An \
            interrupted run loses nothing; a job may then be replayed twice. See docs/operations.md.
            """,
        subcommands: [ListDeadLetters.self, ReplayDeadLetters.self, PurgeDeadLetters.self]
    )
}

/// `dead-letters list`: a summary grouped by reason, or one JSON line per letter.
struct ListDeadLetters: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Summarise the dead letters by reason (nothing is removed).")

    @OptionGroup var options: DeadLetterOptions

    func run() async throws {
        try await options.sweep(.list)
    }
}

/// `dead-letters replay`: selected jobs back to the jobs exchange.
struct ReplayDeadLetters: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replay", abstract: "Send the selected jobs back to the jobs exchange, then remove them.")

    @OptionGroup var options: DeadLetterOptions
    @OptionGroup var work: DeadLetterWorkOptions

    func run() async throws {
        try await options.sweep(.replay, work: work)
    }
}

/// `dead-letters purge`: selected letters removed for good.
struct PurgeDeadLetters: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "purge", abstract: "Remove the selected letters for good.")

    @OptionGroup var options: DeadLetterOptions
    @OptionGroup var work: DeadLetterWorkOptions
    @Flag(help: "Really remove them (required unless --dry-run).") var yes = false

    func validate() throws {
        guard yes || work.dryRun else { throw ValidationError("purge removes letters for good: pass --yes, or --dry-run to see what it would remove") }
    }

    func run() async throws {
        try await options.sweep(.purge, work: work)
    }
}

/// `--dry-run` and `--rate`, for the commands that change the queue.
struct DeadLetterWorkOptions: ParsableArguments {
    @Flag(help: "Print what would happen; change nothing.") var dryRun = false
    @Option(help: "At most this many letters a second.") var rate: Double?

    func validate() throws {
        if let rate, !(rate > 0) { throw ValidationError("--rate must be a number of letters a second above 0") }
    }
}
