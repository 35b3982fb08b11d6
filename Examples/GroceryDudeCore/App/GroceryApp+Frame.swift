extension GroceryApp {
    /// What the screen shows now.
    ///
    /// - Returns: The frame for ``size``.
    /// - Complexity: O(s + h log n + t) for s sections, h visible lines of n items and t items
    ///   ticked off in Shop: it reads only the rows it shows, and the title's counts come from
    ///   the controllers.
    public func frame() -> Frame {
        let screen = visibleScreen
        let panel = noticePanel()
        var body = screen.lines(height: max(1, bodyHeight - panel.count))
        if body.isEmpty {
            if !searchText.isEmpty {
                body = [.note("no \(activeTab == .shop ? "listed " : "")item matches \"\(searchText)\"")]
            } else if activeTab == .shop {
                body = [.note("nothing listed: press Space on an item in Prepare")]
            } else {
                body = [.note("no items: press Ctrl-N to add one")]
            }
        }
        // The section index lists each title once; sections that share a first letter share
        // its entry, as a table view's section index does.
        var titles: [String] = []
        var titleOfSection: [Int] = []
        for title in screen.indexTitles {
            if let position = titles.firstIndex(of: title) {
                titleOfSection.append(position)
            } else {
                titleOfSection.append(titles.count)
                titles.append(title)
            }
        }
        // Prepare fetches every item and Shop every listed one: their controllers keep the
        // counts (the items still to get are a total of Shop's), so a frame never counts items.
        // Shop also holds the items ticked off since it was refreshed: they are not listed.
        let items = panes[ListKind.prepare.rawValue].list.rowCount
        let got = tickedCount
        let listed = panes[ListKind.shop.rawValue].list.toGetCount
        let summary =
            activeTab == .shop
            ? "\(listed) left to get" + (got > 0 ? " · \(got) ticked" : "")
            : "\(items) items · \(listed) listed"
        body = panel + body
        return Frame(
            tabs: ListKind.allCases.map(\.description),
            activeTab: activeTab.rawValue,
            summary: summary,
            body: body,
            indexTitles: titles,
            currentIndexTitle: screen.selectedIndexPath.map { titleOfSection[$0.section] },
            searchLine: searchLine(screen),
            statusLine: prompt.map { $0.purpose == .confirmDelete ? statusLine : formSummary($0) } ?? statusLine)
    }

    /// The notice's panel: its sentences wrapped to the list's width, then how to dismiss
    /// it; at most half the list's height, so the list stays in view.
    private func noticePanel() -> [Frame.Line] {
        guard let notice else { return [] }
        let width = max(10, size.width - FrameRenderer.indexWidth - 6)
        var lines = notice.flatMap { Self.wrap($0, width: width) }
        let room = max(1, bodyHeight / 2) - 1
        if lines.count > room { lines = Array(lines.prefix(max(0, room - 1))) + ["…"] }
        return (lines + ["(Esc closes this note)"]).map(Frame.Line.notice)
    }

    /// Splits a sentence into lines of at most `width` characters, at spaces where it can.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    private func searchLine(_ screen: ListScreen) -> String {
        if let prompt, prompt.purpose == .confirmDelete {
            return "Delete \"\(prompt.text)\"? y deletes, any other key keeps it"
        }
        if let prompt { return formLine(prompt) }
        if searchText.isEmpty {
            return activeTab == .shop
                ? "type to search · Enter ticks off · ^L refresh · Tab · ^N add ^R edit ^U undo"
                : "type to search · Enter list · Tab · ^N add ^R edit ^D delete ^U undo ^Y redo"
        }
        let base = panes[activeTab.rawValue].list.rowCount
        return Self.inputLine(
            head: "search: ", text: screen.list.predicateFormat, tail: " → \(screen.totalRows) of \(base)",
            hint: " (Esc clears)", width: size.width)
    }

    /// The frame laid out for ``size``.
    ///
    /// - Parameter styled: Whether to add ANSI styles.
    /// - Returns: One string per terminal line.
    public func render(styled: Bool = false) -> [String] {
        FrameRenderer(size: size, styled: styled).render(frame())
    }
}
