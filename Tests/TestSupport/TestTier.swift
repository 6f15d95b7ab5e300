import Foundation
public import Testing

/// The unit tier: `make unit` (`APNS_TEST_TIER=unit`) runs only the suites that need no I/O, in well
/// under a minute, with no broker started.
///
/// A suite that opens sockets, starts processes or needs the broker carries ``Trait/io``. Swift
/// Testing 6.3 cannot select tests by tag from the command line, so the mark is a condition trait that
/// skips the suite in the unit tier; and so that a suite missing its mark fails instead of quietly doing
/// I/O there, the test support's own ways into I/O (the mock, processes) refuse in the unit tier.
public enum TestTier {
    /// True in `make unit`.
    public static let unitOnly = ProcessInfo.processInfo.environment["APNS_TEST_TIER"] == "unit"

    /// Throws in the unit tier: `what` is I/O, and the suite that reached it lacks ``Trait/io``.
    public static func requireIO(_ what: String) throws {
        guard unitOnly else { return }
        throw UnmarkedIO(what: what)
    }

    /// I/O reached from a suite without the ``Trait/io`` mark while running the unit tier.
    public struct UnmarkedIO: Error, CustomStringConvertible {
        public let what: String
        public var description: String { "\(what) is I/O: mark the suite .io (it runs outside make unit)" }
    }
}

extension Trait where Self == ConditionTrait {
    /// Needs I/O (sockets, processes, the broker): skipped by `make unit`, run by `make test`.
    public static var io: Self { .disabled(if: TestTier.unitOnly, "needs I/O: not part of make unit") }
}
