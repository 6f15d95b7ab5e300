internal import NIOCore
internal import NIOPosix
internal import TLS
#if canImport(Glibc)
internal import Glibc
#endif

/// Failures below AMQP (the socket, TLS) as ``AMQPError``s in rabbitmq-c's vocabulary of statuses, with
/// what the kernel or OpenSSL said: "connection refused by 127.0.0.1:5672", not "a socket error occurred".
enum TransportErrors {
    static func amqpError(_ error: any Error, endpoint: AMQPEndpoint) -> AMQPError {
        let operation = "connect to \(endpoint)"
        switch error {
        case let error as AMQPError:
            return error
        case let error as TLSError:
            let status = switch error.code {
            case .certificateVerificationFailed: AMQPError.peerVerifyFailedStatus
            case .hostNameMismatch: AMQPError.hostnameVerifyFailedStatus
            default: AMQPError.tlsErrorStatus
            }
            return .library(status, "TLS with \(endpoint)", error.message)
        case let error as NIOConnectionError:
            let reasons = error.connectionErrors.map { "\(phrase($0.error)) \(describe($0.target)):\(endpoint.port)" }
            if let dns = error.dnsAAAAError ?? error.dnsAError, reasons.isEmpty {
                return .library(AMQPError.socketErrorStatus, operation, "cannot resolve \(endpoint.host): \(dns)")
            }
            return AMQPError(.library(status: AMQPError.socketErrorStatus), operation: operation, message: reasons.isEmpty ? "no address for \(endpoint.host)" : reasons.joined(separator: "; "))
        case ChannelError.connectTimeout(let amount):
            return .library(AMQPError.timeoutStatus, operation, "no answer within \(amount.nanoseconds / 1_000_000) ms")
        case let error as IOError:
            return AMQPError(.library(status: AMQPError.socketErrorStatus), operation: "read from \(endpoint)", message: "\(phrase(error)) \(endpoint.host):\(endpoint.port)")
        default:
            return .library(AMQPError.socketErrorStatus, operation, "\(error)")
        }
    }

    /// "connection refused by", "no route to", … for the address that follows.
    private static func phrase(_ error: any Error) -> String {
        guard let error = error as? IOError else { return "\(error) from" }
        switch error.errnoCode {
        case ECONNREFUSED: return "connection refused by"
        case ETIMEDOUT: return "connection timed out to"
        case EHOSTUNREACH, ENETUNREACH: return "no route to"
        case ECONNRESET: return "connection reset by"
        default: return "\(String(cString: strerror(error.errnoCode)).lowercased()) with"
        }
    }

    private static func describe(_ address: SocketAddress) -> String {
        switch address {
        case .v6: "[\(address.ipAddress ?? "?")]"
        default: address.ipAddress ?? "\(address)"
        }
    }
}
