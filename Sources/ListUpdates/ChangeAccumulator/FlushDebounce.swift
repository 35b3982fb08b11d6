/// Tells when to flush an accumulator after changes stop arriving for a quiet period, on a
/// clock the caller supplies (a real clock in an app, a manual one in tests, so no test ever
/// waits on wall-clock time).
///
/// The debounce does not schedule anything: call ``changesArrived()`` when changes arrive and
/// ``shouldFlush()`` on every tick of whatever drives the UI (a display link, a timer, a run
/// loop observer). A steady stream of changes still flushes at least every
/// ``maximumDelay``, when one is set.
///
/// ```swift
/// var debounce = FlushDebounce(quietPeriod: .milliseconds(100), clock: ContinuousClock())
/// accumulator.add(changes); debounce.changesArrived()
/// // on each tick:
/// if debounce.shouldFlush() { accumulator.flush() }
/// ```
public struct FlushDebounce<C: Clock> {
    /// The clock that tells the time.
    public let clock: C
    /// How long no change must arrive before a flush is due.
    public var quietPeriod: C.Duration
    /// The longest a change may wait for a flush while changes keep arriving, or `nil` for no
    /// limit.
    public var maximumDelay: C.Duration?

    /// When the first change not yet flushed arrived.
    public private(set) var firstChange: C.Instant?
    /// When the latest change arrived.
    public private(set) var latestChange: C.Instant?

    /// Creates a debounce.
    ///
    /// - Parameters:
    ///   - quietPeriod: How long no change must arrive before a flush is due.
    ///   - maximumDelay: The longest a change may wait while changes keep arriving; `nil` for no
    ///     limit.
    ///   - clock: The clock that tells the time.
    /// - Complexity: O(1).
    public init(quietPeriod: C.Duration, maximumDelay: C.Duration? = nil, clock: C) {
        self.clock = clock
        self.quietPeriod = quietPeriod
        self.maximumDelay = maximumDelay
    }

    /// Records that changes arrived now.
    ///
    /// - Complexity: O(1).
    public mutating func changesArrived() {
        let now = clock.now
        if firstChange == nil { firstChange = now }
        latestChange = now
    }

    /// Whether a flush is due now: changes arrived, and either none came for the quiet period
    /// or the oldest has waited for the maximum delay. Returning `true` forgets the changes,
    /// so the caller must flush.
    ///
    /// - Returns: Whether to flush now.
    /// - Complexity: O(1).
    public mutating func shouldFlush() -> Bool {
        guard let first = firstChange, let latest = latestChange else { return false }
        let now = clock.now
        let quiet = latest.advanced(by: quietPeriod) <= now
        let overdue = maximumDelay.map { first.advanced(by: $0) <= now } ?? false
        guard quiet || overdue else { return false }
        firstChange = nil
        latestChange = nil
        return true
    }
}

// A clock, its instants and its durations are all `Sendable` by their protocols.
extension FlushDebounce: Sendable {}
