import APNsCore
import AMQP
import Foundation
import HTTP2
import JSON
import Worker

/// One fuzz input through the job decoder, as a hostile publisher would send it, and what must hold
/// whatever it is: decoding ends (no crash, no hang); a decoded job's every header value is one HTTP/2
/// can carry and its payload is a JSON object; a failure names a code that is one word and a detail on
/// one line; and the result either way is valid JSON whose message AMQP can publish.
///
/// Input: the body; or, after a first byte 0x00, an AMQP `message_id` (up to a newline) and then the
/// body, so ids from message properties are fuzzed too.
public enum JobDecodingProbe {
    public static func run(_ input: [UInt8]) {
        var envelope = JobEnvelope(body: input)
        if input.first == 0x00 {
            let line = input.dropFirst().prefix { $0 != 0x0A }
            envelope.messageID = String(decoding: line, as: UTF8.self)
            envelope.body = Array(input.dropFirst(1 + line.count + 1))
        }
        switch JobDecoder.decodeAny(envelope) {
        case .success(.notification(let job)):
            checkCarriable(job.request)
            for token in job.multicast?.tokens ?? [] {
                checkCarriable(job.request.addressed(to: token, apnsID: APNsID.derived(fromJobID: job.id, token: token)))
            }
            checkResult(id: job.id, status: .delivered, reason: nil, detail: nil)
        case .success(.channel(let job)):
            checkCarriable(job.request)
            checkResult(id: job.id, status: .delivered, reason: nil, detail: nil)
        case .failure(let error):
            require(!error.code.isEmpty && error.code.utf8.allSatisfy { $0.isASCIILetter }, "failure code \(error.code.debugDescription)")
            require(!UntrustedText.containsControl(error.detail), "control character in detail \(error.detail.debugDescription)")
            if let id = error.jobID { checkResult(id: id, status: .failed, reason: error.code, detail: error.detail) }
        }
    }

    /// Every value the APNs client puts in a header, and the payload.
    static func checkCarriable(_ request: NotificationRequest) {
        var values = [("apns-topic", request.topic), ("apns-push-type", request.pushType.headerValue), ("apns-priority", request.priority.headerValue), (":path", request.path)]
        if let expiration = request.expiration { values.append(("apns-expiration", expiration.headerValue)) }
        if let collapseID = request.collapseID { values.append(("apns-collapse-id", collapseID.value)) }
        if let apnsID = request.apnsID { values.append(("apns-id", apnsID.value)) }
        for (name, value) in values {
            require(HTTP2HeaderRules.problem(with: HTTP2Header(name, value)) == nil, "\(name) cannot be sent: \(value.debugDescription)")
        }
        require((try? JSONReader.validate(request.payload)) == .object, "the payload is not a JSON object")
    }

    /// Every header a channel request sends, and a broadcast's payload.
    static func checkCarriable(_ request: ChannelRequest) {
        for (name, value) in [(":path", request.path)] + request.headers {
            require(HTTP2HeaderRules.problem(with: HTTP2Header(name, value)) == nil, "\(name) cannot be sent: \(value.debugDescription)")
        }
        if case .broadcast(let broadcast) = request.operation {
            require((try? JSONReader.validate(broadcast.payload)) == .object, "the broadcast payload is not a JSON object")
        }
    }

    /// The result a job gets: valid JSON that reads back, a routing key and properties AMQP can carry.
    static func checkResult(id: String, status: JobStatus, reason: String?, detail: String?) {
        var result = JobResult(id: id, status: status, attempts: 0, completedAt: Date(timeIntervalSince1970: 0), worker: "fuzz")
        result.reason = reason
        result.detail = detail
        let body = result.encoded()
        require((try? JSONReader.parse(body)) != nil, "the result is not valid JSON")
        require(result.routingKey.utf8.count <= 255, "routing key of \(result.routingKey.utf8.count) bytes")
        let properties = AMQPProperties(correlationID: JobIdentifier.isCarriable(id) ? id : nil)
        require(AMQPMessage(body: body, properties: properties).encodingProblems().isEmpty, "the result cannot be published")
    }
}

extension UInt8 {
    fileprivate var isASCIILetter: Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) }
}
