import APNsCore
import APNsClient
import Foundation
import Testing
import TestSupport
import WorkerConfiguration

extension DeploymentFilesTests {
    /// `docker/compose.yaml` and the worker configuration it mounts, `docker/worker.compose.yaml`.
    @Suite(.io, .enabled(if: ExternalTool.hasPythonYAML, "needs python3 with PyYAML (apt install python3-yaml)"))
    struct Compose {
        static let file = "docker/compose.yaml"
        static let workerConfiguration = "docker/worker.compose.yaml"

        static func compose() throws -> StructuredValue {
            try RepositoryFiles.yamlDocument(file)
        }

        static func settings() throws -> WorkerSettings {
            try WorkerSettingsLoader.load(yaml: RepositoryFiles.text(workerConfiguration), environment: [:])
        }

        /// A compose path (relative to `docker/`) as a path from the repository root.
        static func hostPath(_ composePath: String) -> String {
            RepositoryFiles.url("docker").appendingPathComponent(composePath).standardizedFileURL.path
        }

        /// Seconds of a compose duration such as `30s`, `1m` or `1m30s`.
        static func seconds(_ text: String) -> Double? {
            var total = 0.0
            var number = ""
            var rest = Substring(text)
            while let character = rest.first {
                if character.isNumber || character == "." {
                    number.append(character)
                    rest = rest.dropFirst()
                    continue
                }
                let unit = rest.prefix { !$0.isNumber && $0 != "." }
                rest = rest.dropFirst(unit.count)
                guard let value = Double(number), let scale = ["ms": 0.001, "s": 1, "m": 60, "h": 3600][String(unit)] else { return nil }
                total += value * scale
                number = ""
            }
            return number.isEmpty ? total : nil
        }

        @Test func hasTheFourServicesWiredInOrder() throws {
            let services = try Self.compose()["services"]
            #expect(Set(services.members.keys) == ["rabbitmq", "mock-apns", "declare", "worker"])

            let rabbitmq = services["rabbitmq"]
            #expect(rabbitmq["image"].string == "rabbitmq:4.0-management")
            #expect(Set(rabbitmq["ports"].strings) == ["5672:5672", "15672:15672"])
            #expect(rabbitmq["healthcheck"]["test"].strings.contains("rabbitmq-diagnostics"))

            let declare = services["declare"]
            #expect(declare["command"][0].string == "declare")
            #expect(declare["depends_on"]["rabbitmq"]["condition"].string == "service_healthy")
            #expect(declare["restart"].string == "no")

            let worker = services["worker"]
            #expect(worker["command"][0].string == "run")
            #expect(worker["depends_on"]["rabbitmq"]["condition"].string == "service_healthy")
            #expect(worker["depends_on"]["declare"]["condition"].string == "service_completed_successfully")
            #expect(worker["depends_on"]["mock-apns"]["condition"].string == "service_healthy")
            #expect(services["mock-apns"]["healthcheck"]["test"].array.isEmpty == false)
        }

        @Test func workersScaleWithoutClashing() throws {
            let worker = try Self.compose()["services"]["worker"]
            #expect(worker["deploy"]["replicas"].int == 2)
            // `--scale worker=N` fails on a fixed container name or a published host port.
            #expect(worker["container_name"].isNull)
            #expect(worker["ports"].isNull)
            #expect(worker["expose"].strings == [String(try #require(try Self.settings().metrics.port))])
        }

        @Test func theMockIsReachableOnlyInsideTheNetwork() throws {
            let mock = try Self.compose()["services"]["mock-apns"]
            #expect(mock["ports"].isNull, "the mock must not be published on the host")
            let command = mock["command"].strings
            let host = try #require(command.firstIndex(of: "--host")).advanced(by: 1)
            #expect(command[host] == "0.0.0.0")
            let port = try #require(command.firstIndex(of: "--port")).advanced(by: 1)
            #expect(mock["expose"].strings == [command[port]])
        }

        @Test func ourServicesRunOnReadOnlyFilesystemsWithoutCapabilities() throws {
            let services = try Self.compose()["services"]
            for name in ["mock-apns", "declare", "worker"] {
                #expect(services[name]["read_only"].bool == true, "\(name) should have a read-only root filesystem")
                #expect(services[name]["cap_drop"].strings == ["ALL"], "\(name) should drop every capability")
                // No tmpfs: the worker and the mock write no file.
                #expect(services[name]["tmpfs"].isNull, "\(name) needs no writable path")
            }
        }

        @Test func buildsTargetsThatTheDockerfileHas() throws {
            let services = try Self.compose()["services"]
            let dockerfile = try DeploymentFilesTests.Dockerfile.load()
            let expected = ["mock-apns": "mock-apns", "declare": "worker", "worker": "worker"]
            for (service, target) in expected {
                let build = services[service]["build"]
                #expect(build["target"].string == target, "\(service) should build target \(target)")
                #expect(Self.hostPath(build["context"].string ?? "") == Sample.repositoryRoot.standardizedFileURL.path)
                #expect(build["dockerfile"].string == DeploymentFilesTests.Dockerfile.path)
                #expect(dockerfile.stage(named: target) != nil, "docker/Dockerfile has no stage \(target)")
            }
            #expect(services["declare"]["image"] == services["worker"]["image"], "declare runs the worker's image")
        }

        @Test func workersStopLaterThanTheyDrain() throws {
            let worker = try Self.compose()["services"]["worker"]
            let grace = try #require(Self.seconds(worker["stop_grace_period"].string ?? ""))
            let drain = try Self.settings().worker.shutdownTimeout
            #expect(grace > Double(drain.components.seconds), "stop_grace_period \(grace)s ≤ worker.shutdown_timeout")
        }

        @Test func theWorkerConfigurationLoadsAndPointsAtTheComposeServices() throws {
            let settings = try Self.settings()
            let services = try Self.compose()["services"]
            let endpoint = try #require(settings.apns.endpoint)
            #expect(endpoint.host == "mock-apns")
            let mockCommand = services["mock-apns"]["command"].strings
            let portIndex = try #require(mockCommand.firstIndex(of: "--port")).advanced(by: 1)
            #expect(String(endpoint.port) == mockCommand[portIndex])
            #expect(settings.amqp.urls == ["amqp://guest:guest@rabbitmq:5672/"])
            #expect(settings.worker.declareTopology == false, "the declare service declares; workers need not")
            #expect(settings.credentials.map(\.name) == ["team-one", "team-two"])
            for command in [services["worker"]["command"], services["declare"]["command"]] {
                let config = try #require(command.strings.firstIndex(of: "--config")).advanced(by: 1)
                #expect(command.strings[config] == "/etc/apns-worker/worker.yaml")
            }
        }

        /// Container paths the worker service provides, mapped to the host files behind them.
        static func workerMounts(_ compose: StructuredValue) -> [String: String] {
            var mounts: [String: String] = [:]
            let worker = compose["services"]["worker"]
            for volume in worker["volumes"].array where volume["type"].string == "bind" {
                if let target = volume["target"].string, let source = volume["source"].string {
                    #expect(volume["read_only"].bool == true, "\(target) should be mounted read-only")
                    mounts[target] = hostPath(source)
                }
            }
            for secret in worker["secrets"].array {
                guard let source = secret["source"].string ?? secret.string else { continue }
                let target = secret["target"].string ?? source
                let file = compose["secrets"][source]["file"].string
                #expect(file != nil, "secret \(source) has no file")
                mounts[target.hasPrefix("/") ? target : "/run/secrets/\(target)"] = file.map(hostPath)
            }
            return mounts
        }

        @Test func everyFileTheConfigurationNamesIsMountedAndUsable() throws {
            let compose = try Self.compose()
            let mounts = Self.workerMounts(compose)
            #expect(mounts["/etc/apns-worker/worker.yaml"] == Self.hostPath("worker.compose.yaml"))

            // Swap each container path for the host file compose mounts there, then run the worker's own
            // check: keys parse, the CA loads, the broker URL is valid.
            var settings = try Self.settings()
            let caFile = try #require(settings.apns.caFile)
            let hostCA = try #require(mounts[caFile], "\(caFile) is not mounted into the worker")
            settings.apns.caFile = hostCA
            for index in settings.credentials.indices {
                guard case let .token(team, key, keyFile, allowInsecure, refreshAge) = settings.credentials[index].kind else {
                    Issue.record("compose credentials are token credentials")
                    continue
                }
                let hostFile = try #require(mounts[keyFile], "\(keyFile) is not a secret of the worker")
                settings.credentials[index].kind = .token(teamID: team, keyID: key, keyFile: hostFile, allowInsecureKeyPermissions: allowInsecure, refreshAge: refreshAge)
            }
            #expect(settings.amqp.passwordFile == nil)
            #expect(ConfigurationCheck.problems(settings) == [])
        }

        @Test func secretsAreTheTestOnlyFixtureKeys() throws {
            let secrets = try Self.compose()["secrets"].members
            #expect(!secrets.isEmpty)
            for (name, secret) in secrets {
                let file = try #require(secret["file"].string, "secret \(name) should come from a file")
                #expect(Self.hostPath(file).hasPrefix(Fixtures.directory.standardizedFileURL.path + "/keys/"), "\(name): only test fixtures belong in compose")
            }
        }
    }
}
