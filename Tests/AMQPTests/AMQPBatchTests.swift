import Testing
import TestSupport
@testable import AMQP

@Suite("AMQP client: a job's answer and its ack in one trip, deliveries in batches (real RabbitMQ)", .io)
struct AMQPBatchTests {
    @Test("300 jobs: each answered with publish-then-ack; every answer confirmed, every job acked, none left")
    func answerEveryJob() async throws {
        let client = try await TestBroker.connectedClient()
        let jobs = TestBroker.uniqueName("batch-jobs")
        let answers = TestBroker.uniqueName("batch-answers")
        try await client.declare(queues: [TestBroker.queue(jobs, quorum: true), TestBroker.queue(answers, quorum: true)])
        // All at once, not one confirm after another: in the full suite, where every test shares the
        // two threads of the cooperative pool, this test took 68 s and 90 s in two CI runs on a loaded
        // machine (under a second alone); past 60 s with no consumer the queue expired under it
        // (x-expires) and its last three jobs were not confirmed.
        try await withThrowingTaskGroup(of: AMQPPublishOutcome.self) { group in
            for index in 0..<300 {
                group.addTask { try await client.publish(exchange: "", routingKey: jobs, message: .text("job-\(index)"), mandatory: true) }
            }
            for try await outcome in group { #expect(outcome == .confirmed) }
        }
        let batches = try await client.consumeBatches(queue: jobs, prefetch: 100)
        var answered = 0
        var batchSizes: [Int] = []
        await withTaskGroup(of: AMQPBatchOutcome.self) { group in
            loop: for await batch in batches {
                batchSizes.append(batch.count)
                for delivery in batch {
                    let answer = AMQPOutgoingMessage(exchange: "", routingKey: answers, message: .text("answer to \(delivery.message.text)"))
                    group.addTask { await client.publish([answer], thenAck: delivery) }
                    answered += 1
                    if answered == 300 { break loop }
                }
            }
            for await outcome in group {
                #expect(outcome.acked && outcome.outcomes == [.success(.confirmed)])
            }
        }
        #expect(batchSizes.count < 300, "deliveries arrive in batches: \(batchSizes.count) hand-overs for 300")
        await client.cancelConsuming()
        // Every job acked: the queue gives nothing back; every answer is there.
        let check = try await TestBroker.connectedClient()
        let left = DeliveryInbox(try await check.consume(queue: jobs, prefetch: 10))
        #expect(await left.take(1, within: .milliseconds(500)).isEmpty)
        await check.cancelConsuming()
        let answersInbox = DeliveryInbox(try await check.consume(queue: answers, prefetch: 500))
        #expect(await answersInbox.take(300).count == 300)
        await check.close()
        try await client.deleteQueue(jobs)
        try await client.deleteQueue(answers)
        await client.close()
    }

    @Test("an answer the broker returns leaves its job un-acked: the caller decides (here: requeue)")
    func returnedAnswer() async throws {
        let client = try await TestBroker.connectedClient()
        let jobs = TestBroker.uniqueName("batch-returned")
        try await client.declare(queues: [TestBroker.queue(jobs)])
        try await AMQPConsumeTests.fill(client, jobs, ["only"])
        let inbox = DeliveryInbox(try await client.consume(queue: jobs, prefetch: 10))
        let delivery = try #require(await inbox.take(1).first)
        let nowhere = AMQPOutgoingMessage(exchange: "", routingKey: TestBroker.uniqueName("no-such-queue"), message: .text("lost"))
        let valid = AMQPOutgoingMessage(exchange: "", routingKey: jobs, message: .text("copy"))
        let outcome = await client.publish([valid, nowhere], thenAck: delivery)
        #expect(!outcome.acked)
        #expect(outcome.outcomes == [.success(.confirmed), .success(.returned(replyCode: 312, replyText: "NO_ROUTE"))])
        await client.reject(delivery, requeue: true)
        let again = await inbox.take(2)
        #expect(Set(again.map(\.message.text)) == ["only", "copy"], "the job came back; the copy arrived")
        for delivery in again { await client.ack(delivery) }
        try await client.deleteQueue(jobs)
        await client.close()
    }
}
