public import APNsCore

/// What to do with a job after one attempt: the one place where APNs outcomes become worker actions.
public enum Verdict: Hashable, Sendable {
    /// Publish a `delivered` result.
    case delivered(APNsAcceptance)
    /// Publish a `rejected` result: APNs refused for good.
    case rejected(APNsRejection)
    /// Publish a `failed` result and a dead-letter copy: the retries are used up.
    case failed(code: String, detail: String, rejection: APNsRejection?)
    /// Publish an `expired` result and a dead-letter copy: the deadline has passed or would before the next try.
    case expired(lastError: String)
    /// Send the job to retry tier `tier`, to come back after `delay`.
    case retry(tier: Int, delay: Duration, lastError: String)
    /// The credential is refused by APNs (or cannot connect at all): pause it and put the job back
    /// without counting the attempt.
    case credentialRefused(lastError: String)

    /// The `last-error` header a copy of the job carries for this verdict, always `<Code>: <detail>`:
    /// the code before the colon is the reason `dead-letters --reason` selects by. `nil` for
    /// delivered and rejected jobs, which leave no copy.
    public var lastError: String? {
        switch self {
        case .delivered, .rejected: nil
        case .failed(let code, let detail, _): "\(code): \(detail)"
        case .expired(let lastError): "\(Self.expiredCode): \(lastError)"
        case .retry(_, _, let lastError), .credentialRefused(let lastError): lastError
        }
    }

    /// The code of an `expired` job's dead letter.
    public static let expiredCode = "expired"
}
