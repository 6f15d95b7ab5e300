import APNsCore
import Testing
@testable import MockAPNs

@Suite("Device registry")
struct DeviceRegistryTests {
    static let plain = ValidationHarness.deviceHex
    static let dead = "dead" + String(ValidationHarness.deviceHex.dropFirst(4))
    static let unknown = "bad0" + String(ValidationHarness.deviceHex.dropFirst(4))
    static let prefixTimestamp = DeviceRegistry.prefixUnregisteredMilliseconds

    @Test("the default registry is open, with the dead and bad0 prefixes")
    func defaults() {
        let registry = DeviceRegistry()
        #expect(registry.status(of: Self.plain) == .active)
        #expect(registry.status(of: Self.dead) == .unregistered(sinceMilliseconds: 1_700_000_000_000))
        #expect(registry.status(of: Self.unknown) == .unknown)
        #expect(registry.status(of: Self.dead.uppercased()) == .unregistered(sinceMilliseconds: Self.prefixTimestamp))
    }

    @Test("explicit sets win over prefixes")
    func explicitWins() {
        let registry = DeviceRegistry(devices: [Self.dead], unregistered: [Self.unknown: 42, Self.plain: 7])
        #expect(registry.status(of: Self.dead) == .active)
        #expect(registry.status(of: Self.unknown) == .unregistered(sinceMilliseconds: 42))
        #expect(registry.status(of: Self.plain) == .unregistered(sinceMilliseconds: 7))
    }

    @Test("a closed registry knows only its devices; prefixes still apply")
    func closed() {
        let registry = DeviceRegistry(acceptsUnknownDevices: false, devices: [Self.plain.uppercased()])
        #expect(registry.status(of: Self.plain) == .active)
        #expect(registry.status(of: "00ff") == .unknown)
        #expect(registry.status(of: Self.dead) == .unregistered(sinceMilliseconds: Self.prefixTimestamp))
    }

    @Test("prefixes can be turned off or changed")
    func prefixes() {
        let off = DeviceRegistry(unregisteredPrefix: nil, unknownPrefix: nil)
        #expect(off.status(of: Self.dead) == .active)
        #expect(off.status(of: Self.unknown) == .active)
        let custom = DeviceRegistry(unregisteredPrefix: "0123", unknownPrefix: "FFFF")
        #expect(custom.status(of: Self.plain) == .unregistered(sinceMilliseconds: Self.prefixTimestamp))
        #expect(custom.status(of: "ffff00") == .unknown)
        #expect(custom.status(of: Self.dead) == .active)
    }

    @Test("a token listed both ways is unregistered; register and unregister move it")
    func mutations() {
        var registry = DeviceRegistry(devices: [Self.plain], unregistered: [Self.plain: 9])
        #expect(registry.status(of: Self.plain) == .unregistered(sinceMilliseconds: 9))
        registry.register(Self.plain)
        #expect(registry.status(of: Self.plain) == .active)
        registry.unregister(Self.plain.uppercased(), sinceMilliseconds: 11)
        #expect(registry.status(of: Self.plain) == .unregistered(sinceMilliseconds: 11))
    }

    @Test("through the validator: 410 Unregistered with its timestamp, 400 BadDeviceToken, or accepted")
    func verdicts() throws {
        let harness = try ValidationHarness(registry: DeviceRegistry(unregistered: [Self.plain: 1_234]))
        let bearer = try harness.bearer()
        func verdict(_ token: String) -> MockVerdict {
            harness.validateFresh(ValidationHarness.request(path: "/3/device/\(token)", authorization: bearer))
        }
        #expect(verdict(Self.plain) == ValidationHarness.rejected(410, .unregistered, timestamp: 1_234))
        #expect(verdict(Self.dead) == ValidationHarness.rejected(410, .unregistered, timestamp: Self.prefixTimestamp))
        #expect(verdict(Self.unknown) == ValidationHarness.rejected(400, .badDeviceToken))
        #expect(verdict("00ff") == .accept)
    }
}
