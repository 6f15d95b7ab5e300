/// The median the benchmarks report: of an odd number of runs the middle one, of an even number the
/// upper of the two middle ones (no averaging, so the figure is one a run really gave).
extension Array {
    /// The element whose `key` is the median, e.g. the run with the median rate.
    func median(by key: (Element) -> Double) -> Element {
        sorted { key($0) < key($1) }[count / 2]
    }
}

extension Array where Element == Double {
    /// The median value.
    var median: Double { sorted()[count / 2] }
}
