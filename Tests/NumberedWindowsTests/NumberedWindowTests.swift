import Testing
import NumberedWindows

@Suite("Numbered window: values under increasing numbers (no I/O)")
struct NumberedWindowTests {
    @Test("values come back by number, once; gaps and unknown numbers hold nothing")
    func lookups() {
        var window = NumberedWindow<String>()
        window.insert("one", at: 1)
        window.insert("three", at: 3)
        #expect(window.count == 2)
        #expect(window[1] == "one")
        #expect(window[2] == nil)
        #expect(window[3] == "three")
        #expect(window[4] == nil)
        #expect(window[0] == nil)
        #expect(window.removeValue(at: 2) == nil)
        #expect(window.removeValue(at: 3) == "three")
        #expect(window.removeValue(at: 3) == nil)
        #expect(window.count == 1)
        #expect(window.oldest == 1)
    }

    @Test("removing the oldest moves the window to the next number still held")
    func oldestAdvancesOverGaps() {
        var window = NumberedWindow<Int>()
        for number in [5, 6, 9, 12] as [UInt64] { window.insert(Int(number), at: number) }
        window.removeValue(at: 6)
        window.removeValue(at: 5)
        #expect(window.oldest == 9)
        window.removeValue(at: 9)
        #expect(window.oldest == 12)
        #expect(window.elements.map(\.number) == [12])
    }

    @Test("a number below the oldest moves the window's start back, across the ring's edge and through growth")
    func numbersBelowTheOldest() {
        var window = NumberedWindow<UInt64>()
        window.insert(7, at: 7)
        window.insert(1, at: 1)
        #expect(window.oldest == 1)
        #expect(window.elements.map(\.number) == [1, 7])
        window.insert(100, at: 100)
        window.insert(0, at: 0)
        #expect(window.elements.map(\.value) == [0, 1, 7, 100])
        for number in [0, 1, 7] as [UInt64] { window.removeValue(at: number) }
        #expect(window.oldest == 100)
    }

    @Test("an update changes the held value in place and reports a number not held")
    func updates() {
        var window = NumberedWindow<[Int]>()
        window.insert([1], at: 7)
        #expect(window.update(at: 7) { $0.append(2) })
        #expect(window[7] == [1, 2])
        #expect(!window.update(at: 8) { $0.append(3) })
        #expect(window[8] == nil)
    }

    @Test("a value held while thousands pass through keeps its place, through the ring's growth and wrap")
    func longHeldValueSurvivesGrowth() {
        var window = NumberedWindow<UInt64>()
        window.insert(0, at: 1)
        // A moving run of 100 values held at a time, beside number 1 held throughout.
        for number in UInt64(2)...20_000 {
            window.insert(number, at: number)
            if number > 101 { #expect(window.removeValue(at: number - 100) == number - 100) }
        }
        #expect(window.count == 101)
        #expect(window.oldest == 1)
        #expect(window[1] == 0)
        #expect(window.elements.map(\.number) == [1] + Array(19_901...20_000))
        window.removeValue(at: 1)
        #expect(window.oldest == 19_901)
    }

    @Test("five held at a time, in order, wrap around a small ring and stay in order")
    func wrapsAroundTheRing() {
        var window = NumberedWindow<UInt64>()
        for number in UInt64(1)...1_000 {
            window.insert(number * 10, at: number)
            if number > 5 { #expect(window.removeValue(at: number - 5) == (number - 5) * 10) }
        }
        #expect(window.elements.map(\.number) == Array(996...1_000))
        #expect(window.elements.map(\.value) == Array(996...1_000).map { $0 * 10 })
        for number in UInt64(996)...1_000 { window.removeValue(at: number) }
        #expect(window.isEmpty)
        window.insert(1, at: 5_000)
        #expect(window.oldest == 5_000, "an empty window starts again wherever the next number is")
    }

    @Test("the storage a long-held value stretched shrinks again once it goes, and values stay in place")
    func storageShrinksAfterAStall() {
        var window = NumberedWindow<UInt64>()
        window.insert(0, at: 1)
        for number in UInt64(2)...100_000 {
            window.insert(number, at: number)
            if number > 11 { window.removeValue(at: number - 10) }
        }
        let stretched = window.capacity
        #expect(stretched >= 100_000)
        window.removeValue(at: 1)
        for number in UInt64(100_001)...101_000 {
            window.insert(number, at: number)
            window.removeValue(at: number - 10)
        }
        #expect(window.capacity <= 4096, "stretched to \(stretched), still \(window.capacity) with ten held")
        #expect(window.elements.map(\.value) == Array(100_991...101_000))
    }

    @Test("removeAll hands back every value, oldest first, and leaves the window empty")
    func removeAllOldestFirst() {
        var window = NumberedWindow<String>()
        window.insert("a", at: 10)
        window.insert("b", at: 11)
        window.insert("c", at: 40)
        window.removeValue(at: 11)
        #expect(window.removeAll() == ["a", "c"])
        #expect(window.isEmpty)
        #expect(window[10] == nil)
        window.insert("d", at: 41)
        #expect(window.elements.map(\.value) == ["d"])
    }
}
