import APNsClient
import APNsCore
import NIOConcurrencyHelpers
import Synchronization

/// Sends a benchmark's requests as chains of callbacks, with no task on either side: each answer's
/// callback, on the connection's event loop, records the request and sends the chain's next one.
/// A worker's single-device job is answered the same way (``APNsClient/send(_:credential:endpoint:urgent:completion:)``).
final class CallbackChains: Sendable {
    let client: APNsClient
    let request: NotificationRequest
    let credential: APNsCredential
    let endpoint: APNsEndpoint
    let tally: Tally
    /// Each request's device and apns-id, when they vary (``ClientBenchmark/distinctDevices``); empty
    /// sends `request` as it is every time.
    let addresses: RequestAddresses
    private let clock = ContinuousClock()
    private let samples = NIOLockedValueBox<[Double]>([])
    private let running: Synchronization.Atomic<Int>
    private let done = NIOLockedValueBox<CheckedContinuation<[Double], Never>?>(nil)

    init(client: APNsClient, request: NotificationRequest, addresses: RequestAddresses, credential: APNsCredential, endpoint: APNsEndpoint, tally: Tally, chains: Int) {
        self.client = client
        self.request = request
        self.addresses = addresses
        self.credential = credential
        self.endpoint = endpoint
        self.tally = tally
        running = Atomic(chains)
    }

    /// Runs `chains` chains until the tally's requests are sent and answered; returns each accepted
    /// request's latency in milliseconds.
    func run(chains: Int) async -> [Double] {
        await withCheckedContinuation { continuation in
            done.withLockedValue { $0 = continuation }
            for _ in 0..<chains { sendNext() }
        }
    }

    private func sendNext() {
        let left = tally.remaining.subtract(1, ordering: .relaxed).oldValue
        guard left > 0 else { return chainEnded() }
        let sent = clock.now
        client.send(addresses.request(left - 1, from: request), credential: credential, endpoint: endpoint) { [self] outcome in
            guard case .success(.accepted) = outcome else {
                tally.failures.add(1, ordering: .relaxed)
                // A send that failed at once (a full line, a pool shut down) called back on this
                // stack: the next one goes from a task, so a run of failures cannot nest.
                Task { sendNext() }
                return
            }
            let milliseconds = (clock.now - sent).milliseconds
            samples.withLockedValue { $0.append(milliseconds) }
            sendNext()
        }
    }

    private func chainEnded() {
        guard running.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        let all = samples.withLockedValue { $0 }
        done.withLockedValue { $0.take() }?.resume(returning: all)
    }
}
