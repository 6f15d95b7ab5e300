import Foundation
import Testing
import WorkerConfiguration

extension DeploymentFilesTests {
    /// `docker/Dockerfile`, read as text (no Docker engine here to build it).
    @Suite struct Dockerfile {
        static let path = "docker/Dockerfile"

        /// The uid every runtime file expects: the image's USER, Kubernetes' runAsUser.
        static let uid = "10001"

        static func load() throws -> DockerfileText {
            DockerfileText(try RepositoryFiles.text(path))
        }

        @Test func theWorkerIsTheDefaultTargetAndRunsTheMountedConfiguration() throws {
            let dockerfile = try Self.load()
            let worker = try #require(dockerfile.stages.last)
            #expect(worker.name == "worker", "a plain `docker build` should produce the worker")
            #expect(worker.arguments(of: "ENTRYPOINT") == [#"["apns-worker"]"#])
            #expect(worker.arguments(of: "CMD") == [#"["run", "--config", "/etc/apns-worker/worker.yaml"]"#])
            #expect(worker.arguments(of: "EXPOSE") == [String(WorkerSettings().metrics.port ?? 0)])
        }

        @Test func buildsStaticallyAndRunsOnSlimDebianAsANonRootUser() throws {
            let dockerfile = try Self.load()
            let build = try #require(dockerfile.stage(named: "build"))
            let buildCommands = build.arguments(of: "RUN").joined(separator: "\n")
            for product in ["apns-worker", "mock-apns"] {
                #expect(buildCommands.contains("swift build -c release --static-swift-stdlib --product \(product)"))
            }
            #expect(buildCommands.contains("strip"))
            #expect(dockerfile.argumentDefault("SWIFT_IMAGE")?.hasPrefix("swift:6.") == true)
            #expect(dockerfile.argumentDefault("SWIFT_IMAGE")?.hasSuffix("-bookworm") == true)
            #expect(dockerfile.argumentDefault("RUNTIME_IMAGE") == "debian:bookworm-slim")

            let runtime = try #require(dockerfile.stage(named: "runtime-base"))
            let installs = runtime.arguments(of: "RUN").joined(separator: "\n")
            for package in ["librabbitmq4", "libnghttp2-14", "libssl3", "ca-certificates"] {
                #expect(installs.contains(package), "runtime image lacks \(package)")
            }
            #expect(installs.contains("--uid \(Self.uid)"))
            #expect(runtime.arguments(of: "USER") == ["\(Self.uid):\(Self.uid)"])
            for stage in ["worker", "mock-apns"] {
                #expect(dockerfile.stage(named: stage)?.base == "runtime-base", "\(stage) should build on runtime-base")
            }
        }

        @Test func noPrivateSigningKeyOrTestFileReachesAnImage() throws {
            let dockerfile = try Self.load()
            for stage in dockerfile.stages {
                for copy in stage.arguments(of: "COPY") {
                    #expect(!copy.contains(".p8"), "stage \(stage.name ?? "?") copies a private key: \(copy)")
                }
            }
            let worker = try #require(dockerfile.stage(named: "worker"))
            #expect(worker.arguments(of: "COPY").allSatisfy { !$0.contains("Tests/") }, "the worker image must hold no test file")
            // The test CA's private key is used to sign the mock's certificate and stays in that stage.
            let mock = try #require(dockerfile.stage(named: "mock-apns"))
            #expect(mock.arguments(of: "COPY").allSatisfy { !$0.contains("ca.key") })
        }

        @Test func theBuildContextSendsOnlyWhatTheBuildCopies() throws {
            let ignore = try RepositoryFiles.text(Self.path + ".dockerignore")
            let rules = ignore.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
            #expect(rules.first == "*", "start from nothing, so .build*/ and .scratch/ never reach the daemon")
            let dockerfile = try Self.load()
            let sources = dockerfile.stages.flatMap { $0.arguments(of: "COPY") }.filter { !$0.hasPrefix("--from") }
                .flatMap { $0.split(separator: " ").dropLast().filter { !$0.hasPrefix("--") } }
            for source in Set(sources) {
                let top = source.split(separator: "/").first.map(String.init) ?? String(source)
                #expect(rules.contains { $0 == "!\(top)" || $0 == "!\(top)/" || ($0 == "!Package.swift" && top.hasPrefix("Package")) },
                        "\(source) is excluded from the build context")
            }
        }
    }
}
