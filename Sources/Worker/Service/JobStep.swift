/// What a delivery needs after decoding: publications right away (malformed, expired, its credential
/// paused), or a send to APNs first.
enum JobStep {
    case publish([Publication])
    case send(PendingSend)
}
