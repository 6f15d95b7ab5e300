public import Foundation

/// `2026-11-21T06:30:00.123Z`: a time in UTC with milliseconds, written straight into text.
///
/// Every result carries one, and Foundation's `ISO8601FormatStyle` took a tenth of a result's cost; this
/// writes the same text (milliseconds truncated, as it does; `UTCTimestampTests` hold the two together).
public enum UTCTimestamp {
    public static func string(_ date: Date) -> String {
        // Whole seconds, then the fraction's milliseconds truncated: Foundation's own arithmetic, so the
        // text is the same to the millisecond even where the double is a hair below a round value.
        let time = date.timeIntervalSince1970
        let seconds = time.rounded(.down)
        let milliseconds = Int64(seconds) * 1000 + Int64((time - seconds) * 1000)
        let (days, millisecondOfDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, inDay) = millisecondOfDay < 0 ? (days - 1, millisecondOfDay + 86_400_000) : (days, millisecondOfDay)
        let (year, month, dayOfMonth) = civil(fromDays: day)
        // Written straight into the string's storage: every result carries one.
        return String(unsafeUninitializedCapacity: 24) { text in
            var position = 0
            func put(_ byte: UInt8) {
                text[position] = byte
                position += 1
            }
            func digits(_ value: Int64, _ count: Int) {
                var divisor: Int64 = 1
                for _ in 1..<count { divisor *= 10 }
                var rest = value
                while divisor > 0 {
                    put(UInt8(ascii: "0") + UInt8(rest / divisor))
                    rest %= divisor
                    divisor /= 10
                }
            }
            digits(year, 4)
            put(UInt8(ascii: "-"))
            digits(month, 2)
            put(UInt8(ascii: "-"))
            digits(dayOfMonth, 2)
            put(UInt8(ascii: "T"))
            digits(inDay / 3_600_000, 2)
            put(UInt8(ascii: ":"))
            digits(inDay / 60_000 % 60, 2)
            put(UInt8(ascii: ":"))
            digits(inDay / 1000 % 60, 2)
            put(UInt8(ascii: "."))
            digits(inDay % 1000, 3)
            put(UInt8(ascii: "Z"))
            return position
        }
    }

    /// Year, month and day of the day `days` after 1970-01-01, in the proleptic Gregorian calendar
    /// (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
