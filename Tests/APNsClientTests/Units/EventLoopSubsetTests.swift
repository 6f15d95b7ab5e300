import NIOCore
import NIOPosix
import Testing
@testable import APNsClient

@Suite("Some of a group's event loops as a group of their own (no I/O)")
struct EventLoopSubsetTests {
    @Test("every loop but the excluded one, each in turn")
    func turns() {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 3)
        defer { try? group.syncShutdownGracefully() }
        let all = Array(group.makeIterator())
        let subset = EventLoopSubset(group, excluding: all[1])
        let handedOut = (0..<6).map { _ in subset.next() }
        #expect(handedOut.map { ObjectIdentifier($0) } == [all[0], all[2], all[0], all[2], all[0], all[2]].map { ObjectIdentifier($0) })
        #expect(Array(subset.makeIterator()).map { ObjectIdentifier($0) } == [all[0], all[2]].map { ObjectIdentifier($0) })
    }

    @Test("a group of one loop keeps it: the client and its connections then share it")
    func oneLoop() {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let only = group.next()
        let subset = EventLoopSubset(group, excluding: only)
        #expect(subset.next() === only)
        #expect(subset.next() === only)
    }

    @Test("any() is the calling thread's loop when it is one of them, without taking a turn")
    func anyOnTheLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 3)
        let all = Array(group.makeIterator())
        let subset = EventLoopSubset(group, excluding: all[0])
        let fromInside = try await all[2].submit { subset.any() === all[2] }.get()
        #expect(fromInside)
        // From the excluded loop, any() hands out the next one in turn.
        let fromExcluded = try await all[0].submit { ObjectIdentifier(subset.any()) }.get()
        #expect(fromExcluded == ObjectIdentifier(all[1]))
        #expect(subset.next() === all[2])
        try await group.shutdownGracefully()
    }

    @Test("the loops are not the subset's to shut down")
    func noShutdown() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let subset = EventLoopSubset(group, excluding: group.next())
        await #expect(throws: EventLoopError.self) { try await subset.shutdownGracefully() }
        // Still running.
        #expect(try await subset.next().submit { 7 }.get() == 7)
        try await group.shutdownGracefully()
    }
}
