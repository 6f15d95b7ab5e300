/// What the owner of an ``AMQPConnection`` (the client's core) hears. Every call happens on the
/// connection's event loop.
protocol AMQPConnectionDelegate: AnyObject {
    /// The handshake completed: the work channel is in confirm mode, the topology channel open.
    func connectionDidOpen(_ connection: AMQPConnection)
    /// A method for the work channel that is not a reply: an ack or nack of a publish, a broker-side
    /// consumer cancel; or `connection.blocked` / `unblocked` (channel 0).
    func connection(_ connection: AMQPConnection, didReceive method: InboundMethod)
    /// A delivery or a returned message, with its whole content.
    func connection(_ connection: AMQPConnection, didReceive content: ContentAssembler.Content)
    /// Everything one read brought was handled: the moment to hand deliveries over and coalesce acks,
    /// just before the connection writes what they produced.
    func connectionDidFinishReading(_ connection: AMQPConnection)
    /// The connection is finished (before or after it opened); called once, and nothing after it.
    func connection(_ connection: AMQPConnection, didFail error: AMQPError)
}
