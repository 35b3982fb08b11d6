// `precondition` and `preconditionFailure` print their message only in debug builds; an
// optimized build stops with a bare "precondition failure". A caller's mistake deserves its
// message in every build, so this module states its preconditions through these two.

/// Stops the program with `message`, in every build, when `condition` is false: a
/// `precondition` whose message survives optimization.
@usableFromInline
@inline(__always)
internal func require(
    _ condition: @autoclosure () -> Bool,
    _ message: @autoclosure () -> String = String(),
    file: StaticString = #fileID,
    line: UInt = #line
) {
    if _slowPath(!condition()) { fatalError(message(), file: file, line: line) }
}

/// Stops the program with `message`, in every build: a `preconditionFailure` whose message
/// survives optimization.
@usableFromInline
internal func requirementFailure(
    _ message: @autoclosure () -> String = String(),
    file: StaticString = #fileID,
    line: UInt = #line
) -> Never {
    fatalError(message(), file: file, line: line)
}
