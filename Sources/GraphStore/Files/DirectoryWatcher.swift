import Dispatch
import Foundation

/// Tells when a directory may have changed: at once when the kernel says a file in it was
/// written, created or renamed into it (inotify), and every `interval` in any case (the
/// fallback where inotify is missing or its events are lost, and for a simulated file
/// system). Signals that come while one is waiting to be read merge into it.
///
/// A watcher belongs to the task that iterates ``signals``; ``stop()`` ends them.
final class DirectoryWatcher {
    /// One element per signal; ends when the watcher stops.
    let signals: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let queue = DispatchQueue(label: "FetchedResultsKit.GraphStore.DirectoryWatcher")
    private let timer: any DispatchSourceTimer
    private let events: (any DispatchSourceRead)?

    /// Starts watching.
    ///
    /// - Parameters:
    ///   - directory: The directory, or `nil` to signal on the timer alone.
    ///   - interval: How often to signal without an event.
    init(directory: String?, interval: Duration) {
        (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let continuation = continuation
        timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = max(1_000_000, Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000))
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds), leeway: .milliseconds(5))
        timer.setEventHandler { continuation.yield() }
        var source: (any DispatchSourceRead)?
        if let directory {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            if descriptor >= 0 {
                let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)
                if inotify_add_watch(descriptor, directory, mask) >= 0 {
                    let read = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
                    read.setEventHandler {
                        // Drain the events: which file changed does not matter.
                        var buffer = [UInt8](repeating: 0, count: 4_096)
                        while buffer.withUnsafeMutableBytes({ Glibc.read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
                        continuation.yield()
                    }
                    read.setCancelHandler { _ = Glibc.close(descriptor) }
                    source = read
                } else {
                    _ = Glibc.close(descriptor)
                }
            }
        }
        events = source
        events?.resume()
        timer.resume()
    }

    /// Stops signalling and ends ``signals``.
    func stop() {
        timer.cancel()
        events?.cancel()
        continuation.finish()
    }

    deinit { stop() }
}
