/// One shard's part of what a worker divides among its shards (broker windows, job slots, APNs
/// connections): shard `index` of `count` takes an equal part, one more while a remainder lasts, and
/// never less than one, so every shard can work.
public struct ShardShare: Sendable, Hashable {
    public let index: Int
    public let count: Int

    /// The whole, undivided: a worker of one shard.
    public static let whole = ShardShare(index: 0, of: 1)

    public init(index: Int, of count: Int) {
        precondition(count >= 1 && (0..<count).contains(index), "shard \(index) of \(count)")
        self.index = index
        self.count = count
    }

    /// This shard's part of `total`.
    public func of(_ total: Int) -> Int {
        max(1, total / count + (index < total % count ? 1 : 0))
    }
}
