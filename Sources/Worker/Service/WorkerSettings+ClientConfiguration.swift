public import APNsClient
public import WorkerConfiguration

extension WorkerSettings {
    /// The APNs client configuration implied by `apns`: timeouts, PING, trusted CAs, the waiting limit and
    /// the default connections per credential (``CredentialRegistry/Entry/connections`` has each one's own).
    public var clientConfiguration: APNsClientConfiguration {
        var configuration = APNsClientConfiguration()
        configuration.connectionsPerPool = apns.connections
        configuration.requestTimeout = apns.requestTimeout
        configuration.connectTimeout = apns.connectTimeout
        configuration.pingInterval = apns.pingInterval
        configuration.pingTimeout = apns.pingTimeout
        configuration.maximumWaitingRequests = apns.maxWaitingRequests
        configuration.trustsSystemStore = apns.trustSystemStore
        configuration.additionalTrustedCAFile = apns.caFile
        configuration.proxy = apns.proxy
        return configuration
    }
}
