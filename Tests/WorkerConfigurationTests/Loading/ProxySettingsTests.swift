import APNsCore
import APNsClient
import Testing
import Worker
import WorkerConfiguration

/// `apns.proxy`, `apns.no_proxy`, `apns.proxy_from_environment` and the usual proxy variables.
@Suite struct ProxySettingsTests {
    @Test func theConfiguredProxyWithItsBypassList() throws {
        let settings = try WorkerSettingsLoader.load(
            yaml: Sample.credential + "apns: {proxy: \"http://pushes:secret@proxy.corp:3128\", no_proxy: [.internal]}\n",
            environment: ["HTTPS_PROXY": "http://other:8080"]
        )
        let proxy = try #require(settings.clientConfiguration.proxy)
        #expect(proxy.host == "proxy.corp" && proxy.port == 3128 && proxy.username == "pushes")
        #expect(!proxy.applies(to: "mock.internal") && proxy.applies(to: "api.push.apple.com"))
    }

    @Test func httpsProxyAndNoProxyFromTheEnvironment() throws {
        let settings = try WorkerSettingsLoader.load(
            yaml: Sample.credential, environment: ["https_proxy": "http://egress:3128", "NO_PROXY": "localhost, api.sandbox.push.apple.com"]
        )
        let proxy = try #require(settings.apns.proxy)
        #expect(proxy.host == "egress" && proxy.port == 3128)
        #expect(!proxy.applies(to: "api.sandbox.push.apple.com") && proxy.applies(to: "api.push.apple.com"))
        #expect(!proxy.applies(to: "localhost") && !proxy.applies(to: "127.0.0.1"), "a machine-wide proxy never takes loopback")
    }

    @Test func theEnvironmentIgnoredWhenToldSo() throws {
        let settings = try WorkerSettingsLoader.load(
            yaml: Sample.credential + "apns: {proxy_from_environment: false}\n", environment: ["HTTPS_PROXY": "http://egress:3128"]
        )
        #expect(settings.apns.proxy == nil)
    }

    @Test func aCredentialMayHaveAProxyOfItsOwn() throws {
        let yaml = """
            credentials:
              - {name: direct, team_id: TEAMID0001, key_id: TESTKEY001, key_file: /k/a.p8, topics: [com.a]}
              - {name: proxied, team_id: TEAMID0002, key_id: TESTKEY002, key_file: /k/b.p8, topics: [com.b], proxy: "http://egress.b:8080"}
              - {name: broken, team_id: TEAMID0003, key_id: TESTKEY003, key_file: /k/c.p8, topics: [com.c], proxy: "ftp://x"}
            """
        do {
            _ = try WorkerSettingsLoader.load(yaml: yaml + "\n", environment: [:])
            Issue.record("an ftp proxy was accepted")
        } catch {
            #expect(error.problems.map(\.path) == ["credentials[2].proxy"])
        }
        let settings = try WorkerSettingsLoader.load(yaml: yaml.split(separator: "\n").dropLast().joined(separator: "\n") + "\n", environment: [:])
        #expect(settings.credentials[0].proxy == nil)
        #expect(settings.credentials[1].proxy?.host == "egress.b" && settings.credentials[1].proxy?.port == 8080)
    }

    @Test func badProxiesAreProblemsWithTheirKeyPath() {
        #expect(throws: ConfigurationProblems.self) {
            try WorkerSettingsLoader.load(yaml: Sample.credential + "apns: {proxy: \"https://proxy.corp:3128\"}\n", environment: [:])
        }
        do {
            _ = try WorkerSettingsLoader.load(yaml: Sample.credential, environment: ["HTTPS_PROXY": "socks5://proxy:1080"])
            Issue.record("a socks proxy in HTTPS_PROXY was accepted")
        } catch {
            #expect(error.problems.map(\.path) == ["apns.proxy"])
            #expect(error.problems.first?.message.contains("HTTPS_PROXY") == true)
            #expect(error.problems.first?.message.contains("proxy_from_environment: false") == true)
        }
    }
}
