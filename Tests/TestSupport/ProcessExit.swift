public import Foundation

extension Process {
    /// Waits until the process exits, without holding a thread of the cooperative pool.
    ///
    /// That pool has one thread per core, two here, and every test's tasks share it: a test blocked in
    /// `waitUntilExit()` while a worker drains held one for seconds, and two such tests froze every
    /// other test's waits and collectors (a lane test's publish, due when 6 jobs were at APNs, went
    /// out 9 s late). Dispatch's global queue blocks one of its own threads instead.
    public func exited() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.waitUntilExit()
                continuation.resume()
            }
        }
    }
}
