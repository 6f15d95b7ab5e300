import AMQP
import APNsCore
import Foundation
import MockAPNs
import TestSupport
import Worker
import WorkerConfiguration

/// Scenarios about what producers send: malformed jobs, huge ones, credentials nobody has.
extension FaultCatalog {
    @Sendable static func poison() -> FaultScenario {
        let jobs = (0..<1000).map { index in
            index % 10 == 0 ? Poison.allCases[(index / 10) % Poison.allCases.count].job(id: "poison-\(index)") : FaultJob.alert("poison-\(index)")
        }
        var scenario = FaultScenario(
            name: "poison-10pct",
            summary: "1,000 jobs, every tenth malformed in one of \(Poison.allCases.count) ways (not JSON, truncated after its id, empty, binary, a JSON array, a missing field, a wrong type, a bad token, "
                + "a bad priority, a payload over 4 KiB). Each poison job ends as a dead letter (with a `failed` result when its id can be read) without reaching APNs; the rest are delivered.",
            jobs: jobs
        )
        scenario.checks = { outcome in
            let poisoned = Set(outcome.scenario.jobs.filter(\.deadLetters).map { APNsID.derived(fromJobID: $0.id).value.lowercased() })
            let reached = outcome.recorded.acceptedByAPNsID.keys.filter { poisoned.contains($0.lowercased()) }.count
            let refused = outcome.recorded.rejectedByReason.values.reduce(0, +)
            return reached == 0 && refused == 0 ? [] : ["poison reached APNs: \(reached) accepted, \(refused) refused"]
        }
        scenario.notes = { outcome in
            let reasons = Dictionary(grouping: outcome.workerDeadLetters) { message -> String in
                guard case .string(let error)? = message.properties.headers["last-error"] else { return "?" }
                return String(error.prefix { $0 != ":" })
            }
            return "dead letters: " + reasons.map { "\($0.key) \($0.value.count)" }.sorted().joined(separator: ", ")
        }
        return scenario
    }

    /// The ways a job can be malformed, each with the result it must get.
    enum Poison: CaseIterable {
        case notJSON, truncated, empty, binary, array, missingToken, wrongType, badToken, badPriority, tooLarge

        func job(id: String) -> FaultJob {
            let token = JobFactory.token()
            func object(_ fields: String) -> [UInt8] { Array("{\"id\":\"\(id)\",\(fields)}".utf8) }
            switch self {
            case .notJSON: return FaultJob(id: id, body: JobFactory.Kind.notJSON.body(id: id), outcomes: [], deadLetters: true)
            // Cut off after its id: the strict reader keeps the members it read before the fault.
            case .truncated: return FaultJob(id: id, body: Array("{\"id\":\"\(id)\",\"device_token\":\"ab".utf8), outcomes: [.failed("InvalidJSON")], deadLetters: true)
            case .empty: return FaultJob(id: id, body: [], outcomes: [], deadLetters: true)
            case .binary: return FaultJob(id: id, body: [0xFF, 0xFE, 0x00, 0x7B, 0xC3, 0x28] + Array(id.utf8), outcomes: [], deadLetters: true)
            case .array: return FaultJob(id: id, body: Array("[\"\(id)\"]".utf8), outcomes: [], deadLetters: true)
            case .missingToken:
                return FaultJob(id: id, body: object(#""topic":"com.example.app","payload":{}"#), outcomes: [.failed("MissingField")], deadLetters: true)
            case .wrongType: return FaultJob.kind(.wrongType, id: id)
            case .badToken:
                return FaultJob(id: id, body: object(#""device_token":"not-hex","topic":"com.example.app","payload":{}"#), outcomes: [.failed("BadDeviceToken")], deadLetters: true)
            case .badPriority:
                return FaultJob(id: id, body: object("\"device_token\":\"\(token)\",\"topic\":\"com.example.app\",\"priority\":7,\"payload\":{}"), outcomes: [.failed("BadPriority")], deadLetters: true)
            case .tooLarge: return FaultJob.kind(.tooLarge, id: id)
            }
        }
    }

    @Sendable static func largeMessages() -> FaultScenario {
        let mebibyte = String(repeating: "x", count: 1 << 20)
        var jobs: [FaultJob] = []
        for index in 0..<140 {
            let id = "large-\(index)"
            switch index % 7 {
            case 0:
                // 1 MiB of a field the worker ignores: the push itself is small and goes out.
                jobs.append(FaultJob(id: id, body: JobFactory.alert(id: id, extra: ",\"trace\":\"\(mebibyte)\""), outcomes: [.delivered]))
            case 1:
                let body = "{\"id\":\"\(id)\",\"device_token\":\"\(JobFactory.token())\",\"topic\":\"com.example.app\",\"payload\":{\"aps\":{\"alert\":\"big\"},\"b\":\"\(mebibyte)\"}}"
                jobs.append(FaultJob(id: id, body: Array(body.utf8), outcomes: [.failed("PayloadTooLarge")], deadLetters: true))
            default:
                jobs.append(FaultJob.alert(id))
            }
        }
        var scenario = FaultScenario(
            name: "1mib-messages",
            summary: "140 jobs, 40 of them 1 MiB: 20 carry 1 MiB in a field the worker ignores (delivered), 20 a 1 MiB payload (failed PayloadTooLarge, dead-lettered byte for byte). "
                + "The first 30 requests get 503, so some large jobs also travel through a retry tier.",
            jobs: jobs
        )
        scenario.mock = {
            $0.faults.forcedReason = "ServiceUnavailable"
            $0.faults.forcedReasonCount = 30
        }
        scenario.checks = { outcome in
            let sent = Dictionary(uniqueKeysWithValues: outcome.scenario.jobs.map { ($0.id, $0.body) })
            let altered = outcome.workerDeadLetters.filter { message in
                let id = (try? JSONSerialization.jsonObject(with: Data(message.body)) as? [String: Any])?["id"] as? String
                return id.flatMap { sent[$0] } != message.body
            }
            return altered.isEmpty ? [] : ["\(altered.count) dead letters differ from the job that was sent"]
        }
        scenario.notes = { outcome in
            let large = Set(outcome.scenario.jobs.filter { $0.body.count > 1 << 20 }.map(\.id))
            let retried = outcome.finalResults.filter { large.contains($0.key) && $0.value.attempts > 1 }.count
            return "\(large.count) jobs of 1 MiB, \(retried) of them retried through a tier, \(outcome.workerDeadLetters.count) dead letters intact"
        }
        return scenario
    }

    @Sendable static func unknownCredential() -> FaultScenario {
        let jobs = (0..<300).map { index -> FaultJob in
            let id = "credential-\(index)"
            switch index % 10 {
            case 0: return FaultJob(id: id, body: JobFactory.alert(id: id, extra: #","credential":"nobody""#), outcomes: [.failed("UnknownCredential")], deadLetters: true)
            case 5: return FaultJob.kind(.unknownTopic, id: id)
            default: return FaultJob.alert(id)
            }
        }
        var scenario = FaultScenario(
            name: "unknown-credential",
            summary: "300 jobs: 30 name a credential the worker does not have, 30 a topic no credential serves (failed UnknownCredential, dead-lettered, never sent). "
                + "APNs also refuses the known credential 3 times (403 InvalidProviderToken): it is paused for `credential_backoff` and its jobs wait in a tier without using an attempt (APNs requests = attempts + 3, every delivered job reports 1 attempt).",
            jobs: jobs
        )
        scenario.mock = {
            $0.faults.forcedReason = "InvalidProviderToken"
            $0.faults.forcedReasonCount = 3
        }
        scenario.checks = { outcome in
            var problems: [String] = []
            let refused = outcome.recorded.rejectedByReason["InvalidProviderToken"] ?? 0
            if refused != 3 { problems.append("\(refused) credential refusals, expected 3") }
            if outcome.recorded.requests != outcome.audit.attempts + refused { problems.append("\(outcome.recorded.requests) requests for \(outcome.audit.attempts) attempts and \(refused) refusals") }
            let unknown = outcome.finalResults.values.filter { $0.reason == "UnknownCredential" }
            if unknown.contains(where: { $0.attempts != 0 }) { problems.append("a job with no credential was sent") }
            if outcome.finalResults.values.contains(where: { $0.status == .delivered && $0.attempts != 1 }) { problems.append("a paused credential used up attempts") }
            return problems
        }
        scenario.notes = { outcome in
            let unknown = outcome.finalResults.values.filter { $0.reason == "UnknownCredential" }.count
            return "\(unknown) failed UnknownCredential with 0 attempts; \(outcome.recorded.rejectedByReason["InvalidProviderToken"] ?? 0) × InvalidProviderToken, no attempt used"
        }
        return scenario
    }
}
