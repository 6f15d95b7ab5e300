// swift-tools-version:6.2
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
        .executable(name: "apns-bench", targets: ["APNsBench"]),
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

        // Wrappers: the only importers of the C modules.
        .target(name: "TLS", dependencies: ["COpenSSL"], swiftSettings: swiftSettings),
        .target(name: "HTTP2", dependencies: ["CNGHTTP2"], swiftSettings: swiftSettings),
        .target(name: "AMQP", dependencies: ["CRabbitMQ"], swiftSettings: swiftSettings),

        // Domain: APNs requests, responses, reasons and provider tokens; no I/O.
        .target(name: "APNsCore", dependencies: ["TLS"], swiftSettings: swiftSettings),

        // Benchmarks: print figures, never pass or fail.
        .executableTarget(name: "APNsBench", dependencies: ["APNsCore", "TLS"], swiftSettings: swiftSettings),

        // Test-only helpers: fixture paths, temporary files.
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "TLSTests", dependencies: ["TLS", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "HTTP2Tests", dependencies: ["HTTP2"], swiftSettings: swiftSettings),
        .testTarget(name: "AMQPTests", dependencies: ["AMQP"], swiftSettings: swiftSettings),
        .testTarget(name: "APNsCoreTests", dependencies: ["APNsCore", "TLS", "TestSupport"], swiftSettings: swiftSettings),
    ]
)
