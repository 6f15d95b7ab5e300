import Foundation
import Testing
import TLS
import TestSupport
@testable import APNsCore

@Suite("Provider token refresh policy")
struct ProviderTokenPolicyTests {
    static let minute: TimeInterval = 60
    let clock = ManualWallClock()
    let signer: ProviderTokenSigner

    init() throws {
        let key = try ES256PrivateKey(pemRepresentation: Fixtures.text("keys/AuthKey_TESTKEY001.p8"))
        signer = try ProviderTokenSigner(teamID: "TEAMID0001", keyID: "TESTKEY001", key: key)
    }

    func source(refreshMinutes: Double = 50) throws -> ProviderTokenSource {
        ProviderTokenSource(signer: signer, policy: try ProviderTokenPolicy(refreshAge: refreshMinutes * Self.minute), clock: clock)
    }

    func token(_ action: ConnectionTokenState.Action) throws -> ProviderToken {
        guard case .send(let token) = action else { throw ConfigurationError(setting: "test", problem: "expected a token, got \(action)") }
        return token
    }

    @Test("refresh ages from 20 to 59 minutes are accepted; the default is 50")
    func acceptedAges() throws {
        #expect(try ProviderTokenPolicy().refreshAge == 50 * Self.minute)
        for minutes in [20.0, 35, 59] {
            #expect(try ProviderTokenPolicy(refreshAge: minutes * Self.minute).refreshAge == minutes * Self.minute)
        }
    }

    @Test("refresh ages outside 20–59 minutes are configuration errors", arguments: [0.0, 19, 19.99, 59.01, 60, 90, -5])
    func refusedAges(minutes: Double) {
        let error = #expect(throws: ConfigurationError.self) { try ProviderTokenPolicy(refreshAge: minutes * Self.minute) }
        #expect(error?.setting == "token refresh age")
    }

    @Test("a connection keeps its token across the 20-minute mark and replaces it at 50")
    func refreshAtFifty() throws {
        let source = try source()
        var state = ConnectionTokenState(policy: source.policy)
        let first = try token(state.beforeRequest(source: source))
        clock.advance(by: 20 * Self.minute)
        #expect(try token(state.beforeRequest(source: source)) == first)
        clock.advance(by: 29 * Self.minute + 59)
        #expect(try token(state.beforeRequest(source: source)) == first)
        clock.advance(by: 1)
        let second = try token(state.beforeRequest(source: source))
        #expect(second != first)
        #expect(second.issuedAt == clock.now())
        clock.advance(by: 10 * Self.minute)  // 60 minutes after the first token
        #expect(try token(state.beforeRequest(source: source)) == second)
    }

    @Test("connections share a young token; a later connection gets a new one it can keep 20 minutes")
    func sharing() throws {
        let source = try source()
        var a = ConnectionTokenState(policy: source.policy)
        var b = ConnectionTokenState(policy: source.policy)
        var c = ConnectionTokenState(policy: source.policy)
        let first = try token(a.beforeRequest(source: source))
        clock.advance(by: 30 * Self.minute)
        #expect(try token(b.beforeRequest(source: source)) == first)
        clock.advance(by: 1)
        let third = try token(c.beforeRequest(source: source))
        #expect(third != first)
        // b must change at 50 minutes; it got its token 20 minutes earlier, so the change is allowed.
        clock.advance(by: 20 * Self.minute - 1)
        #expect(try token(b.beforeRequest(source: source)) != first)
        #expect(try token(c.beforeRequest(source: source)) == third)
    }

    @Test("ExpiredProviderToken within 20 minutes of a change retires the connection instead of re-tokening")
    func expiredSoonRetires() throws {
        let source = try source()
        var state = ConnectionTokenState(policy: source.policy)
        let first = try token(state.beforeRequest(source: source))
        clock.advance(by: 5 * Self.minute)
        #expect(try state.afterExpiredToken(first, source: source) == .retireConnection)
        clock.advance(by: 15 * Self.minute)
        let second = try token(state.afterExpiredToken(first, source: source))
        #expect(second != first)
        // A late answer about the old token does not trigger another change.
        #expect(try state.afterExpiredToken(first, source: source) == .send(with: second))
    }

    @Test("a fresh connection after retirement gets a token other than the rejected one")
    func freshConnectionAvoidsRejected() throws {
        let source = try source()
        var state = ConnectionTokenState(policy: source.policy)
        let rejected = try token(state.beforeRequest(source: source))
        clock.advance(by: 1)
        var fresh = ConnectionTokenState(policy: source.policy)
        #expect(try token(fresh.afterExpiredToken(rejected, source: source)) != rejected)
    }

    @Test("over three simulated hours no token is used past its refresh age or changed within 20 minutes", arguments: [20.0, 35, 50, 59])
    func simulation(refreshMinutes: Double) throws {
        let source = try source(refreshMinutes: refreshMinutes)
        var connections: [(state: ConnectionTokenState, changes: [Date], last: ProviderToken?)] = []
        var generator = SeededGenerator(seed: UInt64(refreshMinutes))
        let start = clock.now()
        while clock.now().timeIntervalSince(start) < 3 * 60 * Self.minute {
            if connections.count < 6, Int.random(in: 0..<40, using: &generator) == 0 {
                connections.append((ConnectionTokenState(policy: source.policy), [], nil))
            }
            for index in connections.indices {
                let used = try token(connections[index].state.beforeRequest(source: source))
                #expect(used.age(at: clock.now()) < refreshMinutes * Self.minute + 1)
                #expect(used.age(at: clock.now()) < ProviderTokenPolicy.maximumTokenAge)
                if used != connections[index].last {
                    if let previous = connections[index].changes.last {
                        #expect(clock.now().timeIntervalSince(previous) >= ProviderTokenPolicy.minimumChangeInterval)
                    }
                    connections[index].changes.append(clock.now())
                    connections[index].last = used
                }
            }
            clock.advance(by: TimeInterval(Int.random(in: 1...45, using: &generator)))
        }
        #expect(connections.count > 1)
        #expect(connections.allSatisfy { $0.changes.count >= 2 })
    }
}
