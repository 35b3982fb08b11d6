import Foundation

/// Where the cursor was when the app quit: the tab and the selected item's restoration
/// identifier, kept in a small file in the store's directory so the next launch shows the
/// same item.
public struct SavedCursor: Codable, Sendable, Hashable {
    /// The file's name in the store's directory.
    public static let fileName = "grocery-dude-cursor.json"

    /// The tab that was showing (``ListKind/rawValue``).
    public var tab: Int
    /// The restoration identifier of the item under the cursor, or `nil` for an empty list.
    public var item: String?

    /// Makes a saved cursor.
    ///
    /// - Parameters:
    ///   - tab: The tab showing.
    ///   - item: The selected item's restoration identifier.
    public init(tab: ListKind, item: String?) {
        self.tab = tab.rawValue
        self.item = item
    }

    /// Reads the cursor saved in a store's directory.
    ///
    /// - Parameter directory: The store's directory.
    /// - Returns: The cursor, or `nil` when none was saved or the file cannot be read
    ///   (the app then starts at the top, as on a first launch).
    public static func load(from directory: URL) -> SavedCursor? {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(fileName)) else { return nil }
        return try? JSONDecoder().decode(SavedCursor.self, from: data)
    }

    /// Writes the cursor into a store's directory, replacing the old file in one rename.
    ///
    /// - Parameter directory: The store's directory.
    /// - Throws: The file system's error; the old file stays.
    public func save(in directory: URL) throws {
        let data = try JSONEncoder().encode(self)
        try data.write(to: directory.appendingPathComponent(Self.fileName), options: .atomic)
    }
}
