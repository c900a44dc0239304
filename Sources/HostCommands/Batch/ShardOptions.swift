import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

/// `--shard`, `--shard-costs` and `--resume`: a page conversion spread over machines, each
/// writing part of the pages and a manifest of what it wrote, rerun where it stopped.
struct ShardOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Write only shard K of N (K from 0 to N-1) of the pages, balanced by page count (or by --shard-costs); auto/N takes K from JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm). Keeps a manifest beside the output.",
        valueName: "K/N|auto/N"))
    var shard: String?

    @Option(help: ArgumentHelp(
        "Balance the shards by the seconds each page took in an earlier run: its manifest, or a directory of them.", valueName: "manifest"))
    var shardCosts: String?

    @Flag(help: "Skip the pages that this shard's manifest records with files that still match it (size and SHA-256); redo the rest.")
    var resume = false

    func validate() throws {
        if shardCosts != nil && shard == nil { throw ValidationError("--shard-costs needs --shard") }
        if let shard { _ = try Shard(shard) }
    }

    /// Whether the run keeps a manifest.
    var keepsManifest: Bool { shard != nil || resume }

    /// What a run with these options writes: this shard's part of `selected` (0-based page
    /// indices) with its manifest in `directory`, less the pages an earlier run finished when
    /// resuming. Nil without `--shard` and `--resume`; `settings` is read only for a manifest.
    func plan(selected: [Int], command: String, document: String, settings: @autoclosure () -> String, directory: String, readsVault: Bool) throws -> BatchPlan? {
        guard keepsManifest else { return nil }
        let shard = try self.shard.map { try Shard($0) } ?? Shard(index: 0, count: 1)
        let assigned = shard.pages(of: selected, cost: try shardCosts.map { try PageManifest.costs(at: $0) } ?? [:])
        let header = PageManifest.Header(
            command: command, document: document,
            documentSHA256: readsVault ? nil : PageManifest.digest(ofFileAt: document)?.sha256,
            settings: settings(), selected: selected.map { $0 + 1 }, shard: shard.index, of: shard.count, assigned: assigned.map { $0 + 1 })
        let writer = try ManifestWriter(directory: directory, header: header, resume: resume)
        let remaining = assigned.filter { writer.done[$0 + 1] == nil }
        if resume && remaining.count < assigned.count {
            Failure.printNote("resuming shard \(shard.index) of \(shard.count): \(assigned.count - remaining.count) of \(assigned.count) pages already written")
        }
        return BatchPlan(pages: remaining, manifest: writer)
    }
}

/// The pages a sharded or resumed run still has to write, and the manifest that records them.
struct BatchPlan {
    /// 0-based page indices, in order.
    let pages: [Int]
    let manifest: ManifestWriter

    /// The size and SHA-256 of a page's finished file, and the seconds it took since `start`:
    /// computed on the worker that wrote it.
    static func describe(_ path: String, since start: ContinuousClock.Instant) throws -> FileFacts {
        let seconds = start.duration(to: .now) / .seconds(1)
        guard let digest = PageManifest.digest(ofFileAt: path) else { throw RendererError(.ioFailure, "cannot read back \(path)") }
        return FileFacts(bytes: digest.bytes, sha256: digest.sha256, seconds: seconds)
    }

    /// Records a page's file in the manifest.
    func record(page index: Int, path: String, _ facts: FileFacts) throws {
        try manifest.record(page: index + 1, path: path, bytes: facts.bytes, sha256: facts.sha256, seconds: facts.seconds)
    }
}

/// What the manifest records of a page's file.
struct FileFacts: Sendable {
    var bytes: Int
    var sha256: String
    var seconds: Double
}
