import Fuzzing

/// libFuzzer's entry point: one input through the job decoder (see ``JobDecodingProbe``).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJobDecoder(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    JobDecodingProbe.run(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}
