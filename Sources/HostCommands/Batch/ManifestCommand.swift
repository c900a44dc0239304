import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `hostapp manifest check DIR`: whether the shards of a conversion, together, hold every
/// page of it exactly once, each file as its manifest recorded it.
struct ManifestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest", abstract: "Check the manifests that sharded render and text runs keep.",
        subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Verify that the shards in a directory hold every selected page exactly once, with files that match their records.",
            discussion: "Prints what is missing, doubled or changed and exits with 1 if anything is; 0 when the conversion is whole.")

        @Argument(help: "The directory holding the shards' manifests (hostapp-manifest-K-of-N.jsonl).", completion: .directory)
        var directory: String

        @Flag(help: "Print the result as JSON.")
        var json = false

        func run() throws {
            let report = try ManifestCheck(directory: directory)
            if json {
                try JSONOutput.print(report)
            } else {
                for problem in report.problems { print(problem) }
                print(report.summary)
            }
            if !report.problems.isEmpty { throw ExitCode(1) }
        }
    }
}

/// The verdict on a directory of manifests.
struct ManifestCheck: Encodable {
    var shards: Int
    var pages: Int
    var verified: Int
    var problems: [String]
    var summary: String

    init(directory: String) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter(PageManifest.isManifest).sorted()
        } catch {
            throw ValidationError("cannot read the directory \(directory)")
        }
        var problems: [String] = []
        var manifests: [PageManifest] = []
        for name in names {
            if let manifest = PageManifest.read(directory + "/" + name) { manifests.append(manifest) } else { problems.append("\(name): not a manifest") }
        }
        guard let first = manifests.first else {
            throw ValidationError("no manifests (hostapp-manifest-K-of-N.jsonl) in \(directory)")
        }
        let count = first.header.of
        var owners: [Int: [Int]] = [:]
        var verified = 0
        var seenShards = Set<Int>()
        for manifest in manifests {
            let header = manifest.header
            let name = "shard \(header.shard) of \(header.of)"
            guard header.of == count, header.document == first.header.document, header.documentSHA256 == first.header.documentSHA256,
                header.settings == first.header.settings, header.selected == first.header.selected, header.command == first.header.command
            else {
                problems.append("\(name): records another conversion (document, settings, pages or shard count differ from shard \(first.header.shard)'s)")
                continue
            }
            guard seenShards.insert(header.shard).inserted else {
                problems.append("\(name): two manifests")
                continue
            }
            for page in header.assigned { owners[page, default: []].append(header.shard) }
            for page in header.assigned {
                guard let record = manifest.records[page] else {
                    problems.append("page \(page): not written by \(name)")
                    continue
                }
                if PageManifest.holds(record, in: directory) {
                    verified += 1
                } else {
                    problems.append("page \(page): \(record.file) is missing or differs from what \(name) recorded")
                }
            }
        }
        for shard in 0..<count where !seenShards.contains(shard) {
            problems.append("shard \(shard) of \(count): no manifest")
        }
        for page in first.header.selected {
            let shards = owners[page] ?? []
            if shards.count > 1 { problems.append("page \(page): in shards \(shards.sorted().map(String.init).joined(separator: ", "))") }
            if shards.isEmpty && seenShards.count == count { problems.append("page \(page): in no shard") }
        }
        self.shards = seenShards.count
        self.pages = first.header.selected.count
        self.verified = verified
        self.problems = problems
        summary = problems.isEmpty
            ? "whole: \(count) shard\(count == 1 ? "" : "s") hold all \(pages) pages of \(first.header.document), each once, every file as recorded"
            : "not whole: \(problems.count) problem\(problems.count == 1 ? "" : "s"); \(verified) of \(pages) pages verified"
    }
}
