import Foundation
import Fuzzing

/// The validator, built once: the test key is read from the checkout the fuzzer runs in.
let probe: MockValidationProbe = {
    let pem = try? String(contentsOfFile: "Tests/Fixtures/keys/AuthKey_TESTKEY001.pub.pem", encoding: .utf8)
    guard let pem, let probe = try? MockValidationProbe(publicKeyPEM: pem) else { fatalError("run from the checkout's root: the test key is missing") }
    return probe
}()

/// libFuzzer's entry point: one input as a request to the mock APNs (see ``MockValidationProbe``).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMockValidation(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    probe.run(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}
