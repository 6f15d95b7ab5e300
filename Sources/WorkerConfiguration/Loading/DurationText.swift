/// The configuration's duration syntax: a number with a unit (`250ms`, `5s`, `2m`, `1h`) or a bare
/// number of seconds (`5`, `1.5`), kept to millisecond precision.
public enum DurationText {
    private static let units: [(suffix: String, milliseconds: Double)] = [
        ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000),
    ]

    /// The duration `text` spells, or `nil` when it is not one (negative numbers included).
    public static func parse(_ text: String) -> Duration? {
        // "ms" comes first in `units`, so "5ms" never reads as 5 minutes followed by an "s".
        let unit = units.first { text.hasSuffix($0.suffix) } ?? ("", 1_000)
        let number = text.dropLast(unit.suffix.count)
        // Only digits and one dot: Double() alone would also take "1e3", "inf" and "-5".
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            number.filter({ $0 == "." }).count <= 1, number != ".", let value = Double(number)
        else { return nil }
        let milliseconds = (value * unit.milliseconds).rounded()
        // A century is more than any setting needs and keeps Int64 far from overflowing.
        guard milliseconds <= 100 * 365 * 86_400_000 else { return nil }
        return .milliseconds(Int64(milliseconds))
    }

    /// The shortest exact spelling: `2m` rather than `120s`, `250ms`, `0s`.
    public static func format(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        for (suffix, size) in units.reversed() where milliseconds != 0 && milliseconds % Int64(size) == 0 {
            return "\(milliseconds / Int64(size))\(suffix)"
        }
        return milliseconds == 0 ? "0s" : "\(milliseconds)ms"
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    var wholeMilliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// The duration in seconds, as Foundation's intervals count.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
