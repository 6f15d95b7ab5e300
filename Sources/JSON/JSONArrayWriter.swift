/// Writes a JSON array straight into bytes, each element written by the caller (a string, a nested
/// object from ``JSONObjectWriter``), commas between them.
public enum JSONArrayWriter {
    public static func write<Elements: Sequence>(
        _ elements: Elements, capacity: Int = 0, _ writeElement: (Elements.Element, inout [UInt8]) -> Void
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(capacity + 2)
        bytes.append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            writeElement(element, &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }
}
