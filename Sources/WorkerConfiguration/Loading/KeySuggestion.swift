/// "did you mean …" for unknown keys: most are one or two typed letters away from a real one.
enum KeySuggestion {
    static func unknownKeyMessage(_ key: String, known: Set<String>) -> String {
        let closest = known.map { (key: $0, distance: distance(key, $0)) }
            .filter { $0.distance <= 2 }
            .min { ($0.distance, $0.key) < ($1.distance, $1.key) }
        return "unknown key" + (closest.map { "; did you mean \($0.key)?" } ?? "")
    }

    /// Levenshtein distance, by characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, charA) in a.enumerated() {
            var current = [i + 1]
            for (j, charB) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (charA == charB ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
