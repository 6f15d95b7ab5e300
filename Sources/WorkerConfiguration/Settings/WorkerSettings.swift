/// The worker's whole configuration, as read from the YAML file and the environment.
///
/// Every field has the documented default (see `config/README.md`), except ``credentials``, which the
/// loader requires to hold at least one entry.
public struct WorkerSettings: Sendable, Hashable {
    /// `worker`: consuming and retrying jobs.
    public var worker = WorkerSection()
    /// `amqp`: reaching RabbitMQ.
    public var amqp = AMQPSection()
    /// `topology`: exchanges and queues.
    public var topology = TopologySection()
    /// `apns`: connections to APNs, shared by every credential.
    public var apns = APNsSection()
    /// `credentials`: who the worker sends as, in file order.
    public var credentials: [CredentialSettings] = []
    /// `log`: level and format.
    public var log = LogSection()
    /// `metrics`: the Prometheus and health-check listener.
    public var metrics = MetricsSection()

    /// The defaults, with no credentials.
    public init() {}
}
