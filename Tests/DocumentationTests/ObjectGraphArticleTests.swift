// The examples of the ObjectGraph catalog, compiled and run as tests. Every test mirrors the
// article Sources/ObjectGraph/ObjectGraph.docc/GettingStarted.md ("Getting started with
// ObjectGraph"), section by section; each test names its heading. When you change an example
// here, change it in the article too (and the other way round).
//
// The article's model types live in `ObjectGraphGettingStarted` so that their names do not
// clash with the README tour's; the suite is nested in it, so the examples read unqualified.

import FetchedResultsKit
import Foundation
import Testing

/// The entities of "Getting started with ObjectGraph".
enum ObjectGraphGettingStarted {
    // MARK: "Declare entities"

    final class Location: GraphObject {
        @Attribute var name = ""
        @Relationship var items: Set<Item>                  // to-many
    }

    final class Item: GraphObject {
        @Attribute var name = ""
        @Attribute var quantity = 0
        @Relationship(inverse: \Location.items) var location: Location?   // to-one
    }

    final class Playlist: GraphObject {
        @Relationship(inverse: \Song.playlist, deleteRule: .cascade) var songs: [Song]  // ordered
    }

    final class Song: GraphObject {
        @Attribute var title = ""
        @Relationship var playlist: Playlist?
    }

    // MARK: "Work from another isolation domain"

    final class Tag: GraphObject {
        @Attribute(unique: true) var label = ""
        @Relationship var items: Set<Item>
    }
}

extension ObjectGraphGettingStarted {
    @MainActor
    @Suite("Article: Getting started with ObjectGraph")
    struct ArticleTests {
        @Test func declareEntities() throws {
            let graph = ObjectGraph()
            let playlist = graph.insert(Playlist())
            let first = graph.insert(Song())
            first.title = "One"
            let second = graph.insert(Song())
            second.title = "Two"
            playlist.songs = [second, first]
            try graph.commit()
            // The inverse and the order are kept; the cascade rule deletes the songs too.
            #expect(first.playlist === playlist)
            #expect(playlist.songs.map(\.title) == ["Two", "One"])
            graph.delete(playlist)
            let changes = try #require(try graph.commit())
            #expect(changes.deleted == [playlist.objectID, first.objectID, second.objectID])
        }

        @Test func writeThenCommit() throws {
            let graph = ObjectGraph()
            let home = graph.insert(Location())
            let milk = graph.insert(Item())
            milk.name = "Milk"
            milk.location = home           // home.items now contains milk
            let changes = try graph.commit(author: "ui")

            #expect(home.items == [milk])
            #expect(changes?.inserted == [home.objectID, milk.objectID])
            #expect(changes?.author == "ui")

            // "Setting an Equatable attribute to an equal value records nothing, and a value
            // set back to what it was at the last commit is not reported."
            milk.name = "Milk"
            #expect(try graph.commit() == nil)
            milk.quantity = 3
            milk.quantity = 0
            #expect(try graph.commit() == nil)

            // "rollback() restores every pending value and relationship."
            milk.name = "Oat milk"
            milk.location = nil
            graph.rollback()
            #expect(milk.name == "Milk")
            #expect(milk.location === home)
        }

        @Test func observe() throws {
            let graph = ObjectGraph()
            let milk = graph.insert(Item())
            try graph.commit()

            var seen: [Set<ObjectID>] = []
            let token = graph.addObserver { changes in
                guard changes.author != "sync" else { return }   // skip our own writes
                print(changes.updated.keys)
                seen.append(Set(changes.updated.keys))
            }
            milk.name = "Milk"
            try graph.commit(author: "ui")
            milk.quantity = 2
            try graph.commit(author: "sync")
            #expect(seen == [[milk.objectID]])
            token.cancel()
        }

        @Test func observeAsAnAsyncSequence() async throws {
            let graph = ObjectGraph()
            // Commits once the loop below waits for its first element.
            Task { @MainActor in
                _ = graph.insert(Item())
                try graph.commit(author: "ui")
                _ = graph.insert(Item())
                try graph.commit(author: "sync")
            }
            var authors: [String?] = []
            for await changes in graph.changes {               // or as an async sequence
                print(changes.author ?? "-", changes.inserted.count)
                authors.append(changes.author)
                if changes.author == "sync" { break }           // until the sync has landed
            }
            #expect(authors == ["ui", "sync"])
        }

        @Test func trackReads() throws {
            let graph = ObjectGraph()
            let item = graph.insert(Item())
            let home = graph.insert(Location())
            home.name = "Home"
            item.location = home
            try graph.commit()

            let (matches, reads) = graph.trackReads { item.location?.name == "Home" }
            // reads: item.location and location.name
            #expect(matches)
            #expect(reads.count == 2)
            #expect(reads.objectIDs == [item.objectID, home.objectID])
        }

        @Test func readFast() throws {
            let graph = ObjectGraph()
            let items = (1...3).map { n in
                let item = graph.insert(Item())
                item.quantity = n
                return item
            }
            try graph.commit()

            let quantity = PropertyReader(\Item.quantity)!
            let keys = items.map { quantity($0) }
            #expect(keys == [1, 2, 3])
            #expect(PropertyReader(\Item.location?.name) == nil)   // a chain is not one property
        }

        @Test func workFromAnotherIsolationDomain() throws {
            let graph = ObjectGraph()

            var batch = GraphBatch()
            let cheese = batch.insert(Item.self, values: ["name": "Cheese"])
            batch.upsert(Tag.self, values: ["label": "dairy"], relationships: ["items": [cheese]])  // by the unique attribute
            try graph.apply(batch, author: "sync")

            // A second batch with the same label updates the tag instead of adding one.
            var again = GraphBatch()
            let butter = again.insert(Item.self, values: ["name": "Butter"])
            again.upsert(Tag.self, values: ["label": "dairy"], relationships: ["items": [butter]])
            let changes = try #require(try graph.apply(again, author: "sync"))
            #expect(changes.inserted.count == 1)
            #expect(changes.author == "sync")
        }
    }
}
