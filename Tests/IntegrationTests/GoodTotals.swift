import FetchedResultsKit
import Foundation

/// The totals the integration screens keep: a count, a sum, a count across the shelf
/// relationship and a minimum under a string comparison, and the request that keeps them.
struct GoodTotals {
    let count = Total<Good, Int>.count()
    let quantity = Total.sum(\Good.quantity)
    let noted = Total.count(where: FetchPredicate<Good> { $0.note != nil })
    let onFridge = Total.count(where: FetchPredicate<Good> { $0.shelf?.name == "Fridge" })
    let firstName = Total.minimum(\Good.name, comparison: .localizedStandard)

    /// The screens' request: sectioned by shelf name, sorted by name and quantity.
    var request: FetchRequest<Good> {
        var request = FetchRequest(Good.self, sortedBy: [SortKey(\.name), SortKey(\.quantity)], sectionKey: SectionKey(\.shelf?.name))
        request.totals = [AnyTotal(count), AnyTotal(quantity), AnyTotal(noted), AnyTotal(onFridge), AnyTotal(firstName)]
        return request
    }

    /// Every total of the results and of each section, as text.
    func values(_ results: some SectionedResults<Good>) -> [String] {
        func of(_ read: (Total<Good, Int>) -> Int, _ first: String?) -> String {
            "\(read(count)) \(read(quantity)) \(read(noted)) \(read(onFridge)) \(first ?? "-")"
        }
        var lines = ["all: " + of({ results.total($0) }, results.total(firstName))]
        for section in results.sections {
            lines.append("\(section.name): " + of({ section.total($0) }, section.total(firstName)))
        }
        return lines
    }

    /// How the totals kept by each of `kept` differ from those of `fresh`, as sentences.
    func mismatches(_ kept: [any SectionedResults<Good>], _ fresh: [any SectionedResults<Good>]) -> [String] {
        zip(kept.indices, zip(kept, fresh)).compactMap { index, pair in
            let (mine, again) = (values(pair.0), values(pair.1))
            return mine == again ? nil : "view \(index) keeps totals \(mine), a fresh fetch \(again)"
        }
    }
}
