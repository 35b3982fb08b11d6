import Foundation
import GraphStore
import ObjectGraph
import TestSupport

enum Kind: String, Codable, CaseIterable { case fruit, dairy, bakery }
enum Code: Int, Codable, CaseIterable { case a = 1, b = 2, c = 30 }

/// A value the store can only keep as JSON.
struct Dimensions: Codable, Equatable, CustomStringConvertible {
    var width: Double
    var depth: Int
    var description: String { "\(width)x\(depth)" }
}

final class Shelf: GraphObject {
    @Attribute var name = ""
    @Relationship var products: Set<Product>
}

final class Product: GraphObject {
    @Attribute var name = ""
    @Attribute var count = 0
    @Attribute var small: Int8 = 0
    @Attribute var big: UInt64 = 0
    @Attribute var price = 0.0
    @Attribute var weight: Float = 0
    @Attribute var flag = false
    @Attribute var added = Date(timeIntervalSinceReferenceDate: 0)
    @Attribute var identifier = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    @Attribute var blob = Data()
    @Attribute var link = URL(string: "https://example.com")!
    @Attribute var cost = Decimal(0)
    @Attribute var note: String? = nil
    @Attribute var rating: Int? = nil
    @Attribute var kind = Kind.fruit
    @Attribute var code = Code.a
    @Attribute var size = Dimensions(width: 1, depth: 1)
    @Relationship(inverse: \Shelf.products) var shelf: Shelf?
    @Relationship(inverse: \Tag.products) var tags: Set<Tag>
}

final class Tag: GraphObject {
    @Attribute var label = ""
    @Relationship var products: Set<Product>
}

final class Playlist: GraphObject {
    @Attribute var title = ""
    @Relationship(inverse: \Song.playlist) var songs: [Song]
}

final class Song: GraphObject {
    @Attribute var title = ""
    @Relationship var playlist: Playlist?
}

let storeSchema = try! StoreSchema([Shelf.self, Product.self, Tag.self, Playlist.self, Song.self])

/// A canonical text of everything a graph holds, object by object in serial order: equal
/// dumps mean equal graphs, IDs included.
func dump(_ graph: ObjectGraph) -> [String] {
    func ids(_ objects: some Sequence<GraphObject>, ordered: Bool) -> String {
        let names = objects.map { "\($0.objectID)" }
        return "[" + (ordered ? names : names.sorted()).joined(separator: ",") + "]"
    }
    var lines: [String] = []
    for shelf in graph.objects(of: Shelf.self) {
        lines.append("\(shelf.objectID) \(shelf.name) \(ids(shelf.products.map { $0 as GraphObject }, ordered: false))")
    }
    for p in graph.objects(of: Product.self) {
        lines.append("\(p.objectID) \(p.name)|\(p.count)|\(p.small)|\(p.big)|\(p.price)|\(p.weight)|\(p.flag)|\(p.added.timeIntervalSinceReferenceDate)|\(p.identifier)|\(Array(p.blob))|\(p.link)|\(p.cost)|\(p.note ?? "nil")|\(p.rating.map(String.init) ?? "nil")|\(p.kind)|\(p.code)|\(p.size) shelf=\(p.shelf.map { "\($0.objectID)" } ?? "-") tags=\(ids(p.tags.map { $0 as GraphObject }, ordered: false))")
    }
    for tag in graph.objects(of: Tag.self) {
        lines.append("\(tag.objectID) \(tag.label) \(ids(tag.products.map { $0 as GraphObject }, ordered: false))")
    }
    for list in graph.objects(of: Playlist.self) {
        lines.append("\(list.objectID) \(list.title) \(ids(list.songs.map { $0 as GraphObject }, ordered: true))")
    }
    for song in graph.objects(of: Song.self) {
        lines.append("\(song.objectID) \(song.title) \(song.playlist.map { "\($0.objectID)" } ?? "-")")
    }
    return lines
}

/// Random edits of every kind, committed a few at a time.
struct StoreWorkload {
    var rng: SeededGenerator

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    mutating func randomProduct(_ graph: ObjectGraph) -> Product {
        let product = graph.insert(Product())
        randomize(product)
        return product
    }

    mutating func randomize(_ p: Product) {
        p.name = ["milk", "bread", "éclair", "", "a b", "🍎"].randomElement(using: &rng)!
        p.count = Int.random(in: -1_000_000...1_000_000, using: &rng)
        p.small = Int8.random(in: .min ... .max, using: &rng)
        p.big = UInt64.random(in: 0 ... .max, using: &rng)
        p.price = [0.1, -2.5, 1e300, .pi].randomElement(using: &rng)!
        p.weight = Float.random(in: 0..<10, using: &rng)
        p.flag = Bool.random(using: &rng)
        p.added = Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0..<1_000_000_000, using: &rng)) / 8)
        p.identifier = UUID()
        p.blob = Data((0..<Int.random(in: 0..<8, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
        p.link = URL(string: ["https://a.example/x?y=1", "file:///tmp/a%20b"].randomElement(using: &rng)!)!
        p.cost = [Decimal(string: "12.345")!, Decimal(0), Decimal(string: "-0.01")!].randomElement(using: &rng)!
        p.note = Bool.random(using: &rng) ? nil : "note \(Int.random(in: 0..<9, using: &rng))"
        p.rating = Bool.random(using: &rng) ? nil : Int.random(in: 0..<6, using: &rng)
        p.kind = Kind.allCases.randomElement(using: &rng)!
        p.code = Code.allCases.randomElement(using: &rng)!
        p.size = Dimensions(width: Double(Int.random(in: 0..<100, using: &rng)) / 4, depth: Int.random(in: 0..<9, using: &rng))
    }

    /// One random edit.
    mutating func edit(_ graph: ObjectGraph) {
        let products = graph.objects(of: Product.self)
        let shelves = graph.objects(of: Shelf.self)
        let tags = graph.objects(of: Tag.self)
        let lists = graph.objects(of: Playlist.self)
        let songs = graph.objects(of: Song.self)
        switch Int.random(in: 0..<14, using: &rng) {
        case 0, 1: _ = randomProduct(graph)
        case 2: if let p = products.randomElement(using: &rng) { graph.delete(p) }
        case 3: if let p = products.randomElement(using: &rng) { randomize(p) }
        case 4: products.randomElement(using: &rng)?.shelf = shelves.randomElement(using: &rng)
        case 5:
            let shelf = graph.insert(Shelf())
            shelf.name = "shelf \(Int.random(in: 0..<100, using: &rng))"
        case 6: if let shelf = shelves.randomElement(using: &rng) { graph.delete(shelf) }
        case 7:
            if tags.count < 6 {
                let tag = graph.insert(Tag())
                tag.label = "tag \(Int.random(in: 0..<1_000_000, using: &rng))"
            }
        case 8:
            if let p = products.randomElement(using: &rng), let tag = tags.randomElement(using: &rng) {
                if p.tags.contains(tag) { p.tags.remove(tag) } else { p.tags.insert(tag) }
            }
        case 9:
            let list = lists.isEmpty || Bool.random(using: &rng) ? graph.insert(Playlist()) : lists.randomElement(using: &rng)!
            let song = graph.insert(Song())
            song.title = "song \(Int.random(in: 0..<100, using: &rng))"
            list.songs.insert(song, at: Int.random(in: 0...list.songs.count, using: &rng))
        case 10:
            if let list = lists.randomElement(using: &rng), list.songs.count > 1 {
                list.songs = list.songs.shuffled(using: &rng)
            }
        case 11: songs.randomElement(using: &rng)?.playlist = lists.randomElement(using: &rng)
        case 12: if let song = songs.randomElement(using: &rng) { graph.delete(song) }
        default: if let tag = tags.randomElement(using: &rng) { graph.delete(tag) }
        }
    }

    /// A commit of one to four edits.
    mutating func commitEdits(_ graph: ObjectGraph) throws {
        for _ in 0..<Int.random(in: 1...4, using: &rng) { edit(graph) }
        try graph.commit()
    }
}

/// A temporary directory, removed at the end.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("graphstore-\(UUID().uuidString)")
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The first lines where two dumps differ, for failure messages.
func difference(_ a: [String], _ b: [String]?) -> String {
    guard let b else { return "(no second state)" }
    for (x, y) in zip(a, b) where x != y { return "\n  \(x)\n  \(y)" }
    return "lengths \(a.count) and \(b.count)"
}
