import APNsCore

extension APNsSection {
    /// The usual proxy variables, unless `apns.proxy` is set or `apns.proxy_from_environment` is false:
    /// `HTTPS_PROXY` (or `https_proxy`) for the proxy, `NO_PROXY` (or `no_proxy`) added to
    /// `apns.no_proxy`. APNs connections are HTTPS, so `HTTP_PROXY` does not apply.
    mutating func applyProxyEnvironment(_ environment: [String: String], log: ProblemLog) {
        guard proxy == nil, proxyFromEnvironment else { return }
        let name = ["HTTPS_PROXY", "https_proxy"].first { !(environment[$0] ?? "").isEmpty }
        guard let name, let url = environment[name] else { return }
        let bypass = noProxy + HTTPProxy.bypassList(environment["NO_PROXY"] ?? environment["no_proxy"])
        do {
            proxy = try HTTPProxy(url: url, bypass: bypass)
        } catch {
            log.report("apns.proxy", "\(error) (from environment variable \(name); set apns.proxy_from_environment: false to ignore it)")
        }
    }
}
