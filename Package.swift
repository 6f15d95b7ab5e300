// swift-tools-version:6.2
import Foundation
import PackageDescription

/// One set of Swift settings for every target of this package.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "apns-worker",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "APNsCore", targets: ["APNsCore"]),
        .executable(name: "apns-worker", targets: ["APNsWorkerCLI"]),
        .executable(name: "mock-apns", targets: ["MockAPNsCLI"]),
        .executable(name: "apns-bench", targets: ["APNsBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // C libraries: module map + shim.h each, imported by exactly one Swift module.
        .systemLibrary(
            name: "CRabbitMQ",
            pkgConfig: "librabbitmq",
            providers: [.apt(["librabbitmq-dev"])]
        ),
        .systemLibrary(
            name: "CNGHTTP2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),

        // The allocator's settings and name; the worker's release build links jemalloc (docs/decisions.md).
        .target(name: "CAllocator"),

        // Wrappers: the only importers of the C modules.
        .target(name: "TLS", dependencies: ["COpenSSL", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")], swiftSettings: swiftSettings),

        // The one strict JSON reader (and writer) for jobs, payloads and tokens; no dependencies.
        .target(name: "JSON", swiftSettings: swiftSettings),
        // Tables under numbers the AMQP client hands out in order (sequence numbers, delivery tags, ids),
        // without hashing.
        .target(name: "NumberedWindows", swiftSettings: swiftSettings),
        .target(name: "HTTP2", dependencies: ["CNGHTTP2"], swiftSettings: swiftSettings),
        // What an AMQP client is configured with (endpoints, TLS, timings) and the error its checks
        // throw: loading a configuration needs these, not the client's event loops or rabbitmq-c.
        .target(name: "AMQPConfiguration", dependencies: ["TLS"], swiftSettings: swiftSettings),
        .target(
            name: "AMQP",
            dependencies: [
                "AMQPConfiguration", "CRabbitMQ", "NumberedWindows", "TLS", "Transport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // Domain: APNs requests, responses, reasons and provider tokens; no I/O.
        .target(name: "APNsCore", dependencies: ["JSON", "TLS", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")], swiftSettings: swiftSettings),

        // TLS + HTTP/2 over one socket: the byte pump both the client and the mock server drive with NIO.
        .target(
            name: "Transport",
            dependencies: [
                "TLS", "HTTP2",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // The APNs client: connections, pools per credential, token policy, GOAWAY and retries.
        .target(
            name: "APNsClient",
            dependencies: [
                "APNsCore", "JSON", "TLS", "HTTP2", "Transport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),

        // The worker's configuration: one YAML file, environment overrides, secrets by file, check-config.
        .target(
            name: "WorkerConfiguration",
            dependencies: ["AMQPConfiguration", "APNsCore", "TLS", .product(name: "Yams", package: "Yams")],
            swiftSettings: swiftSettings
        ),

        // The worker: jobs in, APNs, results out, retries and dead letters.
        .target(
            name: "Worker",
            dependencies: [
                "AMQP", "APNsClient", "APNsCore", "JSON", "TLS", "WorkerConfiguration",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // The operator's dead-letter tooling (list, replay, purge): reads what the worker writes, runs
        // beside it, never inside it.
        .target(
            name: "DeadLetterTools",
            dependencies: [
                "AMQP", "APNsCore", "Worker",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // The HTTP endpoint operators scrape and probe (/metrics, /health/live, /health/ready).
        .target(
            name: "OperationsHTTP",
            dependencies: [
                "Worker",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // The mock APNs server: validates like APNs, injects faults, records deliveries.
        .target(
            name: "MockAPNs",
            dependencies: [
                "APNsCore", "JSON", "TLS", "HTTP2", "Transport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // The worker executable: `apns-worker send | version` (more subcommands come with the worker).
        .executableTarget(
            name: "APNsWorkerCLI",
            dependencies: [
                "AMQP", "APNsCore", "APNsClient", "CAllocator", "DeadLetterTools", "HTTP2", "JSON", "OperationsHTTP", "TLS",
                "Worker", "WorkerConfiguration",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings,
            // jemalloc serves malloc in the release build: 0.85x the worker's CPU per job of glibc's malloc,
            // which spent a sixth of it consolidating and splitting chunks. Not in debug builds, which the
            // sanitizers and fuzzers use with allocators of their own.
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux], configuration: .release))]
        ),
        // The mock APNs as its own process, for end-to-end runs, fault suites and h2load.
        .executableTarget(
            name: "MockAPNsCLI",
            dependencies: [
                "APNsCore", "MockAPNs", "TLS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // Benchmarks: print figures, never pass or fail.
        .executableTarget(
            name: "APNsBench",
            dependencies: [
                "AMQP", "APNsCore", "APNsClient", "CAllocator", "JSON", "TLS", "Worker", "WorkerConfiguration",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings,
            // The client and the worker's code measured in this process run on the allocator the worker's
            // release build ships with (and h2load, the client's yardstick, links jemalloc too).
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux], configuration: .release))]
        ),

        // What the fuzzers check, as plain functions: libFuzzer drives them (make fuzz), and the corpus
        // tests replay every committed seed and regression through them (make test).
        .target(
            name: "Fuzzing",
            dependencies: ["AMQP", "APNsCore", "HTTP2", "JSON", "MockAPNs", "TLS", "Worker"],
            swiftSettings: swiftSettings
        ),

        // Test-only helpers: fixture paths, temporary files.
        .target(
            name: "TestSupport",
            dependencies: [
                "APNsCore", "APNsClient", "MockAPNs", "TLS",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APNsClientTests", dependencies: ["APNsClient", "APNsCore", "MockAPNs", "HTTP2", "TLS", "TestSupport"],
            exclude: ["Proxy/bad_proxy.py"], swiftSettings: swiftSettings
        ),
        .testTarget(name: "MockAPNsTests", dependencies: ["MockAPNs", "APNsClient", "APNsCore", "TLS", "HTTP2", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "TLSTests", dependencies: ["TLS", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "HTTP2Tests", dependencies: ["HTTP2"], swiftSettings: swiftSettings),
        .testTarget(name: "NumberedWindowsTests", dependencies: ["NumberedWindows"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TransportTests",
            dependencies: [
                "Transport", "TLS", "HTTP2", "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "APNsCore", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "AMQPTests",
            dependencies: [
                "AMQP", "APNsCore", "TestSupport", "TLS",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "WorkerConfigurationTests", dependencies: ["WorkerConfiguration", "Worker", "AMQP", "APNsClient", "APNsCore", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "WorkerTests",
            dependencies: [
                "Worker", "WorkerConfiguration", "DeadLetterTools", "AMQP", "APNsClient", "APNsCore", "MockAPNs", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            exclude: ["Schemas/validate.py", "Faults/hostile_publish.py"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "APNsCoreTests", dependencies: ["APNsCore", "TLS", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "FuzzingTests", dependencies: ["AMQP", "Fuzzing", "MockAPNs", "TestSupport"], swiftSettings: swiftSettings),
    ]
)

// The libFuzzer executables exist only for `make fuzz` (scripts/fuzz.sh sets APNS_FUZZ=1 and builds them
// with --sanitize=fuzzer into .build-fuzz): built without libFuzzer they would have no entry point.
if ProcessInfo.processInfo.environment["APNS_FUZZ"] == "1" {
    for name in ["job-decoder", "mock-validation", "amqp-content", "amqp-frames"] {
        let target = "Fuzz" + name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        package.products.append(.executable(name: "fuzz-\(name)", targets: [target]))
        package.targets.append(.executableTarget(name: target, dependencies: ["Fuzzing"], path: "Fuzz/\(target)", swiftSettings: swiftSettings))
    }
}
