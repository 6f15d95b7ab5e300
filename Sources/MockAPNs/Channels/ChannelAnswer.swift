import APNsCore

/// The mock's answer to a channel request: a status, the headers APNs sends with it, a body.
struct ChannelAnswer {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8] = []

    /// A refusal as APNs writes it: `{"reason": …}`.
    init(_ reason: APNsReason) {
        status = reason.documentedStatus ?? 400
        headers = [("content-type", "application/json")]
        body = Array("{\"reason\":\"\(reason.name)\"}".utf8)
    }

    init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
