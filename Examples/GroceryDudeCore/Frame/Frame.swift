/// What one screenful of the app shows, before it is laid out into lines of text.
///
/// The app builds a frame from its state; ``FrameRenderer`` lays it out. The body holds only
/// the lines that fit, already scrolled.
public struct Frame: Sendable, Hashable {
    /// One line of the list area.
    public enum Line: Sendable, Hashable {
        /// A section header with its number of rows, and what else it says of them (how
        /// many are still to get), empty for nothing.
        case header(title: String, count: Int, detail: String = "")
        /// An item's row.
        ///
        /// - Parameters:
        ///   - name: The item's name.
        ///   - detail: Its quantity and note, joined, or empty.
        ///   - listed: Whether it is on the shopping list (highlighted).
        ///   - struck: Whether it was ticked off in the Shop view (struck through, `[✓]`).
        ///   - selected: Whether the cursor is on it.
        ///   - marked: Whether it changed in the last animated batch.
        case row(name: String, detail: String = "", listed: Bool, struck: Bool = false, selected: Bool, marked: Bool)
        /// A note in place of rows, such as "no matches".
        case note(String)
        /// A line of a notice shown above the list until it is dismissed, such as what opening
        /// a damaged list found.
        case notice(String)
    }

    /// The tab titles, left to right.
    public var tabs: [String]
    /// The position of the active tab in ``tabs``.
    public var activeTab: Int
    /// The text at the right of the title line, such as `42 items · 8 listed`.
    public var summary: String
    /// The list lines that fit, top to bottom.
    public var body: [Line]
    /// The section index: one title per section, in order.
    public var indexTitles: [String]
    /// The position in ``indexTitles`` of the section the cursor is in, if any.
    public var currentIndexTitle: Int?
    /// The search (or prompt) line.
    public var searchLine: String
    /// The status line: what the last flush decided and why, or a message.
    public var statusLine: String

    /// Makes a frame.
    ///
    /// - Parameters:
    ///   - tabs: Tab titles.
    ///   - activeTab: The active tab's position.
    ///   - summary: The title line's right-hand text.
    ///   - body: The list lines that fit.
    ///   - indexTitles: The section index titles.
    ///   - currentIndexTitle: The current section's position in `indexTitles`.
    ///   - searchLine: The search or prompt line.
    ///   - statusLine: The status line.
    public init(
        tabs: [String], activeTab: Int, summary: String, body: [Line], indexTitles: [String],
        currentIndexTitle: Int?, searchLine: String, statusLine: String
    ) {
        self.tabs = tabs
        self.activeTab = activeTab
        self.summary = summary
        self.body = body
        self.indexTitles = indexTitles
        self.currentIndexTitle = currentIndexTitle
        self.searchLine = searchLine
        self.statusLine = statusLine
    }
}
