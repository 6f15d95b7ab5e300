/// Stops the process when a property the fuzzers check does not hold: libFuzzer keeps the input that
/// did it as a crash, and the corpus tests in `make test` replay it from then on.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { preconditionFailure("fuzz invariant broken: \(message())") }
}
