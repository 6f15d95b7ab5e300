import Testing
@testable import AMQP

@Suite("RabbitMQ versions")
struct RabbitMQVersionTests {
    @Test("read from the server properties' text, suffixes ignored, ordered by number")
    func parsing() {
        #expect(RabbitMQVersion("3.10.8") == RabbitMQVersion(3, 10, 8))
        #expect(RabbitMQVersion("4.0.5") == RabbitMQVersion(4, 0, 5))
        #expect(RabbitMQVersion("3.13.7+2.g8a1b2c3") == RabbitMQVersion(3, 13, 7))
        #expect(RabbitMQVersion("4.2") == RabbitMQVersion(4, 2, 0))
        #expect(RabbitMQVersion("rabbit") == nil)
        #expect(RabbitMQVersion(3, 10, 8) < RabbitMQVersion(3, 12, 5) && RabbitMQVersion(3, 12, 5) < RabbitMQVersion(4, 0, 0))
    }

    @Test("only releases before 3.12.5 bind a channel to a quorum queue's recorded leader")
    func staleLeaders() {
        #expect(RabbitMQVersion(3, 10, 8).bindsChannelsToRecordedLeaders)
        #expect(RabbitMQVersion(3, 12, 4).bindsChannelsToRecordedLeaders)
        #expect(!RabbitMQVersion(3, 12, 5).bindsChannelsToRecordedLeaders)
        #expect(!RabbitMQVersion(4, 0, 5).bindsChannelsToRecordedLeaders)
    }
}
