/// Lays a ``Frame`` out as lines of text that fill a terminal of a given size.
///
/// The layout, top to bottom: the title line with the tabs, a rule, the list (``bodyHeight(for:)``
/// lines) with the section index in its right-hand column, a rule, the search line and the
/// status line. Plain frames mark things with characters only — `>` the cursor, `*` a row
/// changed by the last animated batch, `[x]` a listed item, `[✓]` an item ticked off in Shop,
/// `name · quantity · note` an item's details, `[F]` the current section in the index — so they can be printed and compared; styled frames add ANSI colours on top.
/// A size below ``TerminalSize/minimum`` gets a frame that says what size is needed.
public struct FrameRenderer: Sendable {
    /// The size to fill.
    public var size: TerminalSize
    /// Whether to add ANSI colours and reverse video.
    public var styled: Bool

    /// The width of the section index column.
    static let indexWidth = 3
    /// Lines that are not list lines: title, two rules, search, status.
    static let chromeHeight = 5

    /// Makes a renderer.
    ///
    /// - Parameters:
    ///   - size: The size to fill.
    ///   - styled: Whether to add ANSI styles.
    public init(size: TerminalSize, styled: Bool = false) {
        self.size = size
        self.styled = styled
    }

    /// The number of list lines a frame of this size shows.
    ///
    /// - Parameter size: The terminal size.
    /// - Returns: The list height, at least 1.
    public static func bodyHeight(for size: TerminalSize) -> Int {
        max(1, size.height - chromeHeight)
    }

    /// Lays out a frame.
    ///
    /// - Parameter frame: What to show; lines of its body beyond the list height are dropped.
    /// - Returns: Exactly `size.height` lines (at least one), none wider than `size.width`
    ///   characters once styles are removed.
    /// - Complexity: O(width × height).
    public func render(_ frame: Frame) -> [String] {
        guard size.isLargeEnough else { return tooSmall() }
        let width = size.width
        var lines: [String] = []
        lines.append(titleLine(frame, width: width))
        lines.append(style(String(repeating: "─", count: width), .dim))
        let listWidth = width - Self.indexWidth
        for number in 0..<Self.bodyHeight(for: size) {
            let content: String
            if number < frame.body.count {
                content = line(frame.body[number], width: listWidth)
            } else {
                content = fit("", width: listWidth)
            }
            lines.append(content + indexCell(frame, at: number))
        }
        lines.append(style(String(repeating: "─", count: width), .dim))
        lines.append(fit(frame.searchLine, width: width))
        lines.append(style(fit(frame.statusLine, width: width), .dim))
        return lines
    }

    // MARK: Parts

    private func titleLine(_ frame: Frame, width: Int) -> String {
        var left = " Grocery Dude "
        var styledLeft = style(left, .title)
        for (position, tab) in frame.tabs.enumerated() {
            let cell = position == frame.activeTab ? "[\(tab)]" : " \(tab) "
            left += " " + cell
            styledLeft += " " + (position == frame.activeTab ? style(cell, .activeTab) : cell)
        }
        // At least one space stands between the tabs and the summary (an active last tab ends
        // in "]"), and one after it.
        let gap = left.hasSuffix(" ") ? "" : " "
        let room = width - left.count - gap.count - 1
        guard room > 0 else { return fit(left, width: width) }
        let summary = fit(frame.summary, width: room, alignRight: true)
        return styledLeft + gap + summary + " "
    }

    private func line(_ line: Frame.Line, width: Int) -> String {
        switch line {
        case .header(let title, let count, let detail):
            let text = "── \(title) (\(count)\(detail.isEmpty ? "" : " · " + detail)) "
            let filled = text.count < width ? text + String(repeating: "─", count: width - text.count) : text
            return style(fit(filled, width: width), .header)
        case .row(let name, let detail, let listed, let struck, let selected, let marked):
            let box = struck ? "[✓] " : listed ? "[x] " : "[ ] "
            let text = (selected ? ">" : " ") + (marked ? "*" : " ") + box + name + (detail.isEmpty ? "" : " · " + detail)
            var styles: [Style] = []
            if listed { styles.append(.listed) }
            if struck { styles.append(.struck) }
            if marked { styles.append(.marked) }
            if selected { styles.append(.selected) }
            return style(fit(text, width: width), styles)
        case .note(let note):
            return style(fit("   " + note, width: width), .dim)
        case .notice(let text):
            return style(fit(" ! " + text, width: width), .title)
        }
    }

    private func indexCell(_ frame: Frame, at number: Int) -> String {
        guard number < frame.indexTitles.count else { return String(repeating: " ", count: Self.indexWidth) }
        let title = String(frame.indexTitles[number].prefix(1))
        if number == frame.currentIndexTitle { return style("[\(title)]", .activeTab) }
        return " \(title) "
    }

    private func tooSmall() -> [String] {
        let need = TerminalSize.minimum
        let words = "terminal too small (need \(need.width)×\(need.height), have \(size.width)×\(size.height))"
        let width = max(1, size.width)
        var lines: [String] = []
        var current = ""
        for word in words.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        let height = max(1, size.height)
        if lines.count > height { lines = Array(lines.prefix(height)) }
        while lines.count < height { lines.append("") }
        return lines.map { fit($0, width: width) }
    }

    // MARK: Text

    /// Cuts `text` to `width` characters (ending in `…` when cut) or pads it with spaces.
    private func fit(_ text: String, width: Int, alignRight: Bool = false) -> String {
        guard width > 0 else { return "" }
        let count = text.count
        if count > width { return String(text.prefix(width - 1)) + "…" }
        let padding = String(repeating: " ", count: width - count)
        return alignRight ? padding + text : text + padding
    }

    private enum Style {
        case title, activeTab, header, listed, struck, marked, selected, dim

        var code: String {
            switch self {
            case .title: "1;7"
            case .activeTab: "1;36"
            case .header: "1;34"
            case .listed: "32"
            case .struck: "2;9"
            case .marked: "1;33"
            case .selected: "7"
            case .dim: "2"
            }
        }
    }

    private func style(_ text: String, _ style: Style) -> String {
        self.style(text, [style])
    }

    private func style(_ text: String, _ styles: [Style]) -> String {
        guard styled, !styles.isEmpty else { return text }
        return "\u{1B}[\(styles.map(\.code).joined(separator: ";"))m\(text)\u{1B}[0m"
    }
}
