import APNsClient
import APNsCore
import NIOConcurrencyHelpers
@testable import Worker

/// A ``NotificationSender`` that answers as a test says, counts sends, and can hold a send until the test
/// lets it go (to overlap a redelivery with its first delivery), running a hook while it waits.
final class FakeSender: NotificationSender, Sendable {
    private struct State {
        var sends = 0
        var held: [CheckedContinuation<Void, Never>] = []
        var holding = false
    }

    private let state = NIOLockedValueBox(State())
    let answer: @Sendable (NotificationRequest) -> Result<APNsResponse, APNsSendError>
    /// Runs inside each send, before the answer (a reconnect of the broker, say).
    let duringSend: @Sendable () -> Void
    /// Completions are called inside the send, before it returns, as a client does for a request it
    /// refuses at once.
    let answersAtOnce: Bool

    init(
        answersAtOnce: Bool = false,
        duringSend: @escaping @Sendable () -> Void = {},
        answer: @escaping @Sendable (NotificationRequest) -> Result<APNsResponse, APNsSendError> = { request in
            .success(.accepted(APNsAcceptance(apnsID: request.apnsID?.value, uniqueID: nil)))
        }
    ) {
        self.answersAtOnce = answersAtOnce
        self.duringSend = duringSend
        self.answer = answer
    }

    /// Channel requests are not what these tests are about: accepted, counted as sends.
    func send(_ request: ChannelRequest, credential: APNsCredential, endpoint: APNsEndpoint, urgent: Bool) async throws -> APNsResponse {
        state.withLockedValue { $0.sends += 1 }
        return .accepted(APNsAcceptance(apnsID: nil, uniqueID: nil))
    }

    var sends: Int { state.withLockedValue { $0.sends } }
    var waiting: Int { state.withLockedValue { $0.held.count } }

    /// From now on sends wait for ``release()``.
    func hold() {
        state.withLockedValue { $0.holding = true }
    }

    /// Lets every held send answer, and stops holding.
    func release() {
        let held = state.withLockedValue { state in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        for send in held { send.resume() }
    }

    /// The same answers, heard on a task of their own as a real client's arrive on its event loop
    /// (or at once: ``answersAtOnce``).
    func send(
        _ request: NotificationRequest, credential: APNsCredential, endpoint: APNsEndpoint, urgent: Bool,
        completion: @escaping @Sendable (Result<APNsResponse, APNsSendError>) -> Void
    ) {
        if answersAtOnce {
            state.withLockedValue { $0.sends += 1 }
            completion(answer(request))
            return
        }
        Task { completion(await Result(sending: { try await self.send(request, credential: credential, endpoint: endpoint, urgent: urgent) })) }
    }

    func send(_ request: NotificationRequest, credential: APNsCredential, endpoint: APNsEndpoint, urgent: Bool) async throws -> APNsResponse {
        let holding = state.withLockedValue { state in
            state.sends += 1
            return state.holding
        }
        if holding {
            await withCheckedContinuation { continuation in
                let stillHolding = state.withLockedValue { state in
                    if state.holding { state.held.append(continuation) }
                    return state.holding
                }
                if !stillHolding { continuation.resume() }
            }
        }
        duringSend()
        return try answer(request).get()
    }
}
