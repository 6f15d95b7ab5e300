import Fuzzing

/// libFuzzer's entry point: one input as content-header properties (see ``AMQPContentProbe``).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAMQPContent(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    AMQPContentProbe.run(Array(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}
