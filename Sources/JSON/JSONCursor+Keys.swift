#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Refusing repeated keys, without allocating for the small objects documents are made of.
extension JSONCursor {
    /// The keys of one object so far: a stretch of the cursor's ``openKeys`` (compared one by one), or,
    /// past a few dozen keys, a set of their decoded bytes (so a hostile object of 100,000 keys costs
    /// linear time, not quadratic).
    struct ObjectKeys {
        /// Where this object's keys start in ``JSONCursor/openKeys``.
        let first: Int
        private var decoded: Set<[UInt8]>?

        static let linearLimit = 32

        init(first: Int) {
            self.first = first
        }

        /// Adds `key`; false when the object has it already.
        mutating func insert(_ key: StringScan, into cursor: inout JSONCursor) -> Bool {
            if decoded == nil, cursor.openKeys.count - first < Self.linearLimit {
                for other in cursor.openKeys[first...] where cursor.sameText(other, key) { return false }
                cursor.openKeys.append(key)
                return true
            }
            if decoded == nil {
                decoded = Set(cursor.openKeys[first...].map(cursor.decodedBytes))
            }
            return decoded!.insert(cursor.decodedBytes(key)).inserted
        }
    }

    /// Whether two scanned strings have the same text once decoded.
    func sameText(_ a: StringScan, _ b: StringScan) -> Bool {
        if !a.hasEscapes, !b.hasEscapes {
            guard a.content.count == b.content.count else { return false }
            guard let base = bytes.baseAddress else { return true }
            return memcmp(base + a.content.lowerBound, base + b.content.lowerBound, a.content.count) == 0
        }
        return decodedBytes(a) == decodedBytes(b)
    }

    func decodedBytes(_ scan: StringScan) -> [UInt8] {
        let content = UnsafeBufferPointer(rebasing: bytes[scan.content])
        guard scan.hasEscapes else { return Array(content) }
        var decoded: [UInt8] = []
        Self.decodeEscapes(content, into: &decoded)
        return decoded
    }
}
