import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One of N parts of a page selection, for spreading a conversion over machines: `K/N` with
/// K from 0 to N-1, or `auto/N`, which takes K from the scheduler running the process.
struct Shard: Equatable {
    /// This part's 0-based index.
    let index: Int
    /// How many parts there are.
    let count: Int

    /// Where `auto/N` finds the index: a Kubernetes indexed Job's completion index, or a
    /// Slurm job array's task id, less the array's first id (so `--array=1-4` works too).
    static func automaticIndex(environment: [String: String]) throws -> Int {
        if let value = environment["JOB_COMPLETION_INDEX"] {
            guard let index = Int(value) else { throw ValidationError("JOB_COMPLETION_INDEX is '\(value)', not a number") }
            return index
        }
        if let value = environment["SLURM_ARRAY_TASK_ID"] {
            guard let id = Int(value) else { throw ValidationError("SLURM_ARRAY_TASK_ID is '\(value)', not a number") }
            guard let first = environment["SLURM_ARRAY_TASK_MIN"] else { return id }
            guard let minimum = Int(first) else { throw ValidationError("SLURM_ARRAY_TASK_MIN is '\(first)', not a number") }
            return id - minimum
        }
        throw ValidationError("--shard auto/N needs JOB_COMPLETION_INDEX (a Kubernetes indexed Job) or SLURM_ARRAY_TASK_ID (a Slurm job array)")
    }

    /// Reads `K/N` or `auto/N`.
    init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[1]), count >= 1, count <= 100_000 else {
            throw ValidationError("--shard takes K/N or auto/N, with N from 1 to 100000, not '\(text)'")
        }
        let index = parts[0] == "auto" ? try Self.automaticIndex(environment: environment) : Int(parts[0])
        guard let index, (0..<count).contains(index) else {
            throw ValidationError("the shard index must be from 0 to \(count - 1) for --shard \(text), not \(parts[0] == "auto" ? "\(index ?? -1) from the scheduler" : "'\(parts[0])'")")
        }
        self.index = index
        self.count = count
    }

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// This shard's pages of `pages` (0-based indices, in order): a run of consecutive
    /// entries, the runs of all shards together covering `pages` once. The runs are balanced
    /// by `cost` (seconds each page took before; a page without one counts as the mean of
    /// those known, and with none known every page counts alike, so that the runs' lengths
    /// differ by at most one): shard K takes the pages whose cumulative cost's midpoint falls
    /// in the K-th N-th of the total. Every shard computes the same split from the same input.
    func pages(of pages: [Int], cost: [Int: Double] = [:]) -> [Int] {
        guard !pages.isEmpty else { return [] }
        let known = pages.compactMap { cost[$0] }.filter { $0.isFinite && $0 > 0 }
        guard !known.isEmpty else {
            let start = pages.count * index / count, end = pages.count * (index + 1) / count
            return Array(pages[start..<end])
        }
        let mean = known.reduce(0, +) / Double(known.count)
        let costs = pages.map { page in cost[page].flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? mean }
        let total = costs.reduce(0, +)
        var result: [Int] = []
        var before = 0.0
        for (page, weight) in zip(pages, costs) {
            let midpoint = before + weight / 2
            let owner = min(count - 1, Int(midpoint / total * Double(count)))
            if owner == index { result.append(page) }
            before += weight
        }
        return result
    }
}
