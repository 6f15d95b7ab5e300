import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// Set by the first SIGINT or SIGTERM, so a long pass can end cleanly (handing back what it holds)
/// instead of dying mid-letter. A second signal is not needed: the pass notices within a letter.
final class InterruptFlag: Sendable {
    private let flag = NIOLockedValueBox(false)
    /// Kept only to keep the handlers alive; never touched after `init`, so never shared.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    init() {
        let flag = flag
        sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { flag.withLockedValue { $0 = true } }
            source.resume()
            return source
        }
    }

    var isSet: Bool { flag.withLockedValue { $0 } }
}
