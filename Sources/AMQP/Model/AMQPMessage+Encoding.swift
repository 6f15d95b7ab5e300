extension AMQPMessage {
    /// The frame size this client asks brokers for (rabbitmq-c's default; RabbitMQ's too).
    public static let defaultFrameMax = 131_072

    /// Why this message's properties cannot be published as they are; empty when they can. The client
    /// checks every publish the same way and fails one that cannot be carried with `.invalidArgument`,
    /// leaving the connection alone; callers that copy messages they did not write (retries, dead
    /// letters) check first, and drop what cannot travel. Leaves room for the client's own header.
    public func encodingProblems(frameMax: Int = AMQPMessage.defaultFrameMax) -> [AMQPEncodingProblem] {
        EncodingCheck.problems(properties: properties, extraHeaders: [PublishConfirms<Void>.sequenceHeader: .int(0)], frameMax: frameMax)
    }
}

extension AMQPFieldValue {
    /// The bytes this value takes in a header table, its kind byte included: what to drop first when a
    /// copied message's headers no longer fit a frame.
    public var encodedSize: Int { EncodingCheck.valueSize(self) }
}
