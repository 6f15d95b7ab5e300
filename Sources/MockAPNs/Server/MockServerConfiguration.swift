public import APNsCore
public import TLS

/// Everything a mock server needs: how to validate (``MockAPNsConfiguration``), its TLS identity, where
/// to listen, and which clock decides token ages.
public struct MockServerConfiguration: Sendable {
    public var apns: MockAPNsConfiguration
    public var tls: TLSServerConfiguration
    /// Loopback by default: the mock is for tests and benchmarks on this machine.
    public var host: String = "127.0.0.1"
    /// 0 picks a free port; ``MockAPNsServer/start()`` returns it.
    public var port: Int = 0
    public var faults = MockFaults()
    /// Token ages and the 20-minute rule are judged on this clock; tests move a ``ManualWallClock``.
    public var clock: any WallClock = SystemWallClock()

    public init(apns: MockAPNsConfiguration, tls: TLSServerConfiguration) {
        self.apns = apns
        self.tls = tls
    }
}
