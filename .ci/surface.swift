// Checks the public surface that `.ci/docs` extracted as symbol graphs (one JSON file per
// module and extended module under the directory given as the only argument):
//
// 1. every public declaration of this package's sources has a doc comment;
// 2. no public declaration has a `_`-prefixed name, unless its doc comment says it is
//    "not for use" (a member Swift forces to be public);
// 3. every public function, initializer and subscript states its cost in a
//    `- Complexity:` line, except protocol requirements a user implements and
//    their default implementations.
//
// Run by `.ci/docs`; exits non-zero and lists each offending declaration with its file.
import Foundation

struct SymbolGraph: Decodable {
    struct Symbol: Decodable {
        struct Kind: Decodable { let identifier: String }
        struct Identifier: Decodable { let precise: String }
        struct DocComment: Decodable {
            struct Line: Decodable { let text: String }
            let lines: [Line]
        }
        struct Location: Decodable { let uri: String }

        let kind: Kind
        let identifier: Identifier
        let pathComponents: [String]
        let docComment: DocComment?
        let location: Location?
    }

    struct Relationship: Decodable {
        let kind: String
        let source: String
    }

    let symbols: [Symbol]
    let relationships: [Relationship]
}

let callableKinds: Set<String> = [
    "swift.func", "swift.func.op", "swift.method", "swift.type.method", "swift.init", "swift.subscript",
    "swift.type.subscript",
]

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: swift .ci/surface.swift <symbol-graph-directory>\n".utf8))
    exit(2)
}
let root = URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
let sources = FileManager.default.currentDirectoryPath + "/Sources/"

var problems: Set<String> = []
var checked = 0
let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
    .compactMap { $0 as? URL }
    .filter { $0.pathExtension == "json" } ?? []
for file in files {
    let graph: SymbolGraph
    do {
        graph = try JSONDecoder().decode(SymbolGraph.self, from: Data(contentsOf: file))
    } catch {
        problems.insert("\(file.path): cannot read the symbol graph: \(error)")
        continue
    }
    // A requirement's cost is the conforming type's; a default implementation's is documented
    // with the requirement.
    let requirements = Set(
        graph.relationships.filter { $0.kind == "requirementOf" || $0.kind == "defaultImplementationOf" }.map(\.source)
    )
    for symbol in graph.symbols {
        guard let uri = symbol.location?.uri, let range = uri.range(of: sources), symbol.kind.identifier != "swift.extension"
        else { continue }
        checked += 1
        let name = symbol.pathComponents.joined(separator: ".")
        let place = "Sources/" + uri[range.upperBound...]
        let doc = symbol.docComment?.lines.map(\.text).joined(separator: "\n") ?? ""
        if doc.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.insert("\(place): \(name) has no doc comment")
            continue
        }
        if symbol.pathComponents.contains(where: { $0.hasPrefix("_") }),
            doc.range(of: "not for use", options: .caseInsensitive) == nil
        {
            problems.insert("\(place): \(name) is public with a `_` name; make it package, or document it as not for use")
        }
        if callableKinds.contains(symbol.kind.identifier), !requirements.contains(symbol.identifier.precise),
            !doc.contains("- Complexity:")
        {
            problems.insert("\(place): \(name) states no `- Complexity:`")
        }
    }
}

if checked == 0 {
    print("error: no public declaration of Sources/ found under \(root.path)")
    exit(1)
}
for problem in problems.sorted() {
    print("error: \(problem)")
}
if !problems.isEmpty {
    print("error: \(problems.count) problems in the public surface above (\(checked) declarations checked)")
    exit(1)
}
print("== public surface: \(checked) declarations documented, none underscored, every call's cost stated")
