import ObjectGraph

/// Makes every relationship of a graph agree with its inverse, after a salvage lost
/// records: entries naming objects that are gone are cut, and an entry one side has and the
/// other lacks is added to the other side, or cut when that side is a to-one relationship
/// already holding another object.
enum RelationshipRepair {
    /// Repairs the graph and returns how many entries changed (0 for a consistent graph).
    ///
    /// - Complexity: O(*e*) for *e* relationship entries (O(*e*·*m*) with ordered
    ///   relationships of *m* members).
    static func repair(_ graph: ObjectGraph, schema: StoreSchema) -> Int {
        var repaired = 0
        for entity in schema.entities {
            let relationships = entity.properties.filter { $0.relationship != nil }
            guard !relationships.isEmpty else { continue }
            graph.forEachObject(of: entity.description) { object in
                for property in relationships {
                    let targets = object.relatedObjects(at: property.index)
                    let live = targets.filter { !$0.isDeleted && $0.graph === graph }
                    if live.count != targets.count {
                        repaired += targets.count - live.count
                        graph.restoreRelationship(object, property.index, live)
                    }
                }
            }
        }
        for entity in schema.entities {
            for property in entity.properties where property.relationship != nil {
                guard let inverse = graph.inverse(of: entity.description, property.index) else { continue }
                let inverseIsToOne = inverse.entity[inverse.index].relationship?.kind == .toOne
                graph.forEachObject(of: entity.description) { object in
                    for target in object.relatedObjects(at: property.index) where !target.relates(object, at: inverse.index) {
                        repaired += 1
                        if inverseIsToOne && !target.relatedObjects(at: inverse.index).isEmpty {
                            graph.restoreMembership(object, property.index, added: [], removed: [target])
                        } else if inverseIsToOne {
                            graph.restoreRelationship(target, inverse.index, [object])
                        } else {
                            graph.restoreMembership(target, inverse.index, added: [object], removed: [])
                        }
                    }
                }
            }
        }
        return repaired
    }
}
