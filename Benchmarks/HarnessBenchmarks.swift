/// A calibration row: it checks the harness itself by timing a sum against the same sum, so
/// its speedup should be close to 1.
func harnessBenchmarks() -> [Benchmark] {
    [
        Benchmark("harness.calibration", baseline: "the same loop") {
            let values = Array(0..<1_000_000)
            let sum: (inout Stopwatch) -> Void = { stopwatch in
                _ = stopwatch.measure { values.reduce(0, &+) }
            }
            return .init(subject: sum, baseline: sum)
        }
    ]
}
