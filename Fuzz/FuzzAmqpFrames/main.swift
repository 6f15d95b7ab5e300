import Fuzzing

/// libFuzzer's entry point: one input as bytes from a broker (see ``AMQPFramesProbe``).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAMQPFrames(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    AMQPFramesProbe.run(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}
