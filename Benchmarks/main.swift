import Foundation

// Usage: swift run -c release Benchmarks [--json] [--list] [group-or-row ...]
//
// Each row prints the subject's median and minimum, the baseline measured in the same run,
// and the speedup (baseline median / subject median: above 1 means faster than the baseline).

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

// A reader process of the store group's shared rows (StoreSharingBenchmarks.swift).
if CommandLine.arguments.count == 3 && CommandLine.arguments[1] == "--follow-store" {
    followStoreChild(path: CommandLine.arguments[2])
}

// One group per line, so that adding a group touches one line.
let all: [Benchmark] = [
    harnessBenchmarks(),
    graphBenchmarks(),
    validationBenchmarks(),
    diffBenchmarks(),
    accumulatorBenchmarks(),
    searchBenchmarks(),
    controllerBenchmarks(),
    searchKeystrokeBenchmarks(),
    orderedBenchmarks(),
    predicateParseBenchmarks(),
    demoBenchmarks(),
    storeBenchmarks(),
    storeSharingBenchmarks(),
    appBenchmarks(),
    appLaunchBenchmarks(),
].flatMap { $0 }

var arguments = Array(CommandLine.arguments.dropFirst())
let json = arguments.contains("--json")
let list = arguments.contains("--list")
arguments.removeAll { $0.hasPrefix("--") }

if list {
    for benchmark in all { print(benchmark.name) }
} else {
    let selected = all.filter { benchmark in
        arguments.isEmpty || arguments.contains { $0 == benchmark.name || $0 == String(benchmark.group) }
    }
    let unknown = arguments.filter { name in !all.contains { $0.name == name || String($0.group) == name } }
    if !unknown.isEmpty {
        printError("unknown benchmark or group: \(unknown.joined(separator: ", ")); --list shows them")
        exit(2)
    }
    #if DEBUG
        printError("warning: a debug build; run `swift run -c release Benchmarks` for figures worth quoting")
    #endif
    #if FRK_INVARIANT_CHECKS
        printError("warning: built with FRK_INVARIANT_CHECKS; invariant checks distort every figure")
    #endif
    var results: [BenchmarkResult] = []
    for benchmark in selected {
        if !json { printError("running \(benchmark.name)…") }
        results.append(benchmark.run())
    }
    print(json ? Report.json(results) : Report.table(results))
}
