import Testing
import WorkerConfiguration

@Suite struct DurationTextTests {
    @Test(arguments: [
        ("250ms", Duration.milliseconds(250)),
        ("5s", .seconds(5)),
        ("2m", .seconds(120)),
        ("1h", .seconds(3600)),
        ("5", .seconds(5)),
        ("1.5", .milliseconds(1500)),
        ("0.5s", .milliseconds(500)),
        ("1.5h", .seconds(5400)),
        ("0s", .zero),
    ])
    func parsesEveryForm(text: String, expected: Duration) {
        #expect(DurationText.parse(text) == expected)
    }

    @Test(arguments: ["", "s", "5x", "-5s", "5 s", "1e3", "inf", ".", "1.2.3s", "5sec", "2mm"])
    func refusesWhatIsNotADuration(text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test func formatsInTheLargestExactUnit() {
        #expect(DurationText.format(.seconds(5)) == "5s")
        #expect(DurationText.format(.seconds(120)) == "2m")
        #expect(DurationText.format(.seconds(3600)) == "1h")
        #expect(DurationText.format(.milliseconds(1500)) == "1500ms")
        #expect(DurationText.format(.zero) == "0s")
    }

    @Test func everyDurationFormWorksInTheFile() throws {
        let settings = try WorkerSettingsLoader.load(
            yaml: """
                worker: {shutdown_timeout: 250ms, credential_backoff: 2m, credential_watch_interval: 30s}
                amqp: {heartbeat: 30, connect_timeout: 1.5}
                apns: {request_timeout: 1h, ping_interval: 0.5s}
                """ + "\n" + Sample.credential,
            environment: [:]
        )
        #expect(settings.worker.shutdownTimeout == .milliseconds(250))
        #expect(settings.worker.credentialBackoff == .seconds(120))
        #expect(settings.worker.credentialWatchInterval == .seconds(30))
        #expect(settings.amqp.heartbeat == .seconds(30))
        #expect(settings.amqp.connectTimeout == .milliseconds(1500))
        #expect(settings.apns.requestTimeout == .seconds(3600))
        #expect(settings.apns.pingInterval == .milliseconds(500))
    }
}
