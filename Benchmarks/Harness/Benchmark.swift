import Foundation
import HeapStats

/// One row of the benchmark table: a subject and the baseline it is compared with, both
/// measured in the same run of the same process.
struct Benchmark {
    /// The bodies of a row, made by its `setUp` once before any run.
    struct Bodies {
        /// The code under test. If it calls `Stopwatch.measure`, only the measured parts are
        /// timed (set-up inside the body is not); otherwise the whole call is timed.
        var subject: (inout Stopwatch) -> Void
        /// The reference the subject is compared with, timed by the same rule.
        var baseline: (inout Stopwatch) -> Void
        /// Measures the subject's retained bytes per object, and the baseline's, once.
        var memory: (() -> (subject: Double, baseline: Double))?
        /// Named figures the row reports besides its times (counts that must not regress).
        var extra: KeyValuePairs<String, Int>
        /// A second reference, timed in the same alternating runs as the baseline and printed
        /// beside it (not used for the speedup): a named body, timed by the same rule.
        var reference: (name: String, body: (inout Stopwatch) -> Void)?

        init(
            subject: @escaping (inout Stopwatch) -> Void,
            baseline: @escaping (inout Stopwatch) -> Void,
            memory: (() -> (subject: Double, baseline: Double))? = nil,
            extra: KeyValuePairs<String, Int> = [:],
            reference: (name: String, body: (inout Stopwatch) -> Void)? = nil
        ) {
            self.subject = subject
            self.baseline = baseline
            self.memory = memory
            self.extra = extra
            self.reference = reference
        }
    }

    /// The stable dotted name, `group.case`.
    var name: String
    /// What the baseline is, in a few words.
    var baseline: String
    /// How many timed runs each side gets after one warm-up run.
    var runs: Int
    /// Builds the data both sides use (not timed) and returns the bodies.
    var setUp: () -> Bodies

    init(_ name: String, baseline: String, runs: Int = 7, setUp: @escaping () -> Bodies) {
        self.name = name
        self.baseline = baseline
        self.runs = runs
        self.setUp = setUp
    }

    /// The group: the part of the name before the first dot.
    var group: Substring { name.prefix { $0 != "." } }
}

/// The time benchmarks measure: the wall clock; with `FRK_CPU_TIME=1` the calling
/// thread's CPU time, which leaves out the waits of a machine that other work keeps busy;
/// with `FRK_CPU_TIME=process` the CPU time of all the process's threads, for a row that
/// works on several (compare builds with the same setting only).
enum BenchmarkClock {
    static let measuresCPUTime = ProcessInfo.processInfo.environment["FRK_CPU_TIME"] != nil
    private static let cpuClock = ProcessInfo.processInfo.environment["FRK_CPU_TIME"] == "process"
        ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID

    /// The current time, from an arbitrary origin.
    static var now: Duration {
        if measuresCPUTime {
            var time = timespec()
            clock_gettime(cpuClock, &time)
            return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
        }
        return ContinuousClock.now - origin
    }

    private static let origin = ContinuousClock.now
}

/// Times the parts of a benchmark body that matter.
struct Stopwatch {
    private(set) var elapsed: Duration = .zero
    private(set) var didMeasure = false

    /// Runs `body`, adds its duration to the run's time and keeps its result alive.
    @discardableResult
    mutating func measure<Result>(_ body: () throws -> Result) rethrows -> Result {
        let start = BenchmarkClock.now
        let result = try body()
        elapsed += BenchmarkClock.now - start
        didMeasure = true
        blackHole(result)
        return result
    }

    /// Adds a duration the body measured itself (such as a percentile of many timings) to
    /// the run's time.
    mutating func record(_ duration: Duration) {
        elapsed += duration
        didMeasure = true
    }
}

/// Keeps a value alive and opaque so the optimizer cannot drop the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Bytes currently allocated from the process's heap (0 where the C library cannot tell),
/// for memory rows: allocate n objects, keep them alive, and divide the difference by n.
func allocatedBytes() -> Int {
    Int(frk_allocated_bytes())
}

/// Returns the heap's free memory to the system (where the C library can), so that a timed
/// region that allocates a lot starts from the same heap state whichever side ran before
/// it: otherwise a side may reuse, or be denied, pages the other side's frees left mapped.
func releaseFreedMemory() {
    frk_release_free_memory()
}

/// The figures measured for one row.
struct BenchmarkResult {
    var name: String
    var baseline: String
    var median: Double
    var min: Double
    var baselineMedian: Double
    var baselineMin: Double
    var bytesPerObject: Double?
    var baselineBytesPerObject: Double?
    var extra: [(name: String, value: Int)] = []
    /// The second reference's name and median time, when the row has one.
    var reference: (name: String, median: Double)?

    /// Baseline median over subject median: above 1 means the subject is faster.
    var speedup: Double { median > 0 ? baselineMedian / median : .infinity }

    /// Subject median over the second reference's median: how many times the reference's
    /// time the subject takes.
    var referenceRatio: Double? {
        reference.map { $0.median > 0 ? median / $0.median : .infinity }
    }
}

extension Benchmark {
    /// Runs the row: set-up, one warm-up run of each side, then `runs` alternating timed runs.
    func run() -> BenchmarkResult {
        let bodies = setUp()
        let warmUp = Self.time(bodies.subject)
        _ = Self.time(bodies.baseline)
        var subjectTimes: [Double] = []
        var baselineTimes: [Double] = []
        var referenceTimes: [Double] = []
        if let reference = bodies.reference { _ = Self.time(reference.body) }
        for _ in 0..<runs {
            subjectTimes.append(Self.time(bodies.subject))
            baselineTimes.append(Self.time(bodies.baseline))
            if let reference = bodies.reference { referenceTimes.append(Self.time(reference.body)) }
        }
        if ProcessInfo.processInfo.environment["FRK_TIMES"] != nil { printError("\(name): µs, warm-up \(Int(warmUp * 1e6)), then \(subjectTimes.map { Int($0 * 1e6) })") }
        let memory = bodies.memory?()
        return BenchmarkResult(
            name: name,
            baseline: baseline,
            median: Self.median(subjectTimes),
            min: subjectTimes.min() ?? 0,
            baselineMedian: Self.median(baselineTimes),
            baselineMin: baselineTimes.min() ?? 0,
            bytesPerObject: memory?.subject,
            baselineBytesPerObject: memory?.baseline,
            extra: bodies.extra.map { (name: $0.key, value: $0.value) },
            reference: bodies.reference.map { (name: $0.name, median: Self.median(referenceTimes)) }
        )
    }

    private static func time(_ body: (inout Stopwatch) -> Void) -> Double {
        var stopwatch = Stopwatch()
        let start = BenchmarkClock.now
        body(&stopwatch)
        let total = BenchmarkClock.now - start
        return seconds(stopwatch.didMeasure ? stopwatch.elapsed : total)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    private static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
