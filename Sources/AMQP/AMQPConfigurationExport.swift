// The client's options, endpoints and error type live in AMQPConfiguration, so that loading a
// configuration does not pull in the event loops and rabbitmq-c. They are part of this module's API
// (every call takes or throws them), so importing AMQP brings them along.
@_exported public import AMQPConfiguration
