import Testing

@testable import RendererComparison

/// The sequence alignment and the line diff on inputs whose answers are known by hand.
@Suite("Alignment and line diffs")
struct AlignmentTests {
    static func align(_ a: [String], _ b: [String]) -> [SequenceAlignment.Step] {
        SequenceAlignment.align(a.count, b.count) { a[$0] == b[$1] }
    }

    @Test func equalSequencesPairEveryItem() {
        #expect(Self.align(["a", "b", "c"], ["a", "b", "c"]) == [.both(first: 0, second: 0), .both(first: 1, second: 1), .both(first: 2, second: 2)])
    }

    @Test func anInsertedItemStandsAloneAndTheRestStillPair() {
        #expect(Self.align(["a", "b", "c"], ["a", "x", "b", "c"]) == [.both(first: 0, second: 0), .onlySecond(1), .both(first: 1, second: 2), .both(first: 2, second: 3)])
        #expect(Self.align(["a", "b", "c"], ["b", "c"]) == [.onlyFirst(0), .both(first: 1, second: 0), .both(first: 2, second: 1)])
    }

    @Test func emptySequences() {
        #expect(Self.align([], []) == [])
        #expect(Self.align(["a"], []) == [.onlyFirst(0)])
        #expect(Self.align([], ["a", "b"]) == [.onlySecond(0), .onlySecond(1)])
    }

    @Test func aReplacedItemBetweenMatchesIsPairedAsChanged() {
        let steps = SnapshotComparison.pairRewrittenPages(Self.align(["a", "b", "c"], ["a", "x", "c"]))
        #expect(steps == [.both(first: 0, second: 0), .both(first: 1, second: 1), .both(first: 2, second: 2)])
        // Two lone reference pages and one lone new page: the first pair, the second stays removed.
        let uneven = SnapshotComparison.pairRewrittenPages(Self.align(["a", "b", "c", "d"], ["a", "x", "d"]))
        #expect(uneven == [.both(first: 0, second: 0), .both(first: 1, second: 1), .onlyFirst(2), .both(first: 3, second: 2)])
    }

    @Test func aLineDiffGivesTheChangedLinesOnly() {
        let diff = LineDiff(from: "one\ntwo\nthree\nfour", to: "one\n2\nthree\nfour\nfive")
        #expect(diff.changes == ["-two", "+2", "+five"])
        #expect(LineDiff(from: "same\ntext", to: "same\ntext").isEmpty)
        let long = LineDiff(from: (1...20).map(String.init).joined(separator: "\n"), to: "")
        #expect(long.summary(limit: 3) == "-1\n-2\n-3\n(18 more changed lines)")
    }
}
