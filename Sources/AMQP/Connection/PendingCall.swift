internal import NIOCore

/// A method the client sends on a channel and waits for the reply of: what it sends, the reply it
/// expects, who hears it, and — once sent — the timer that gives up on it.
struct PendingCall {
    var method: OutboundMethod
    var expects: UInt32
    var operation: String
    var reply: (Result<InboundMethod, AMQPError>) -> Void
    /// Set when the method is written; nil while it waits behind the call before it.
    var timeout: Scheduled<Void>?

    var isSent: Bool { timeout != nil }
}
