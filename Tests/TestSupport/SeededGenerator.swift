public import APNsCore

/// The tests' one deterministic generator: the project's ``SplitMix64``, so the same seed gives the
/// same run everywhere.
public typealias SeededGenerator = SplitMix64
