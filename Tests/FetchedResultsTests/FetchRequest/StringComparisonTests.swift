import FetchedResults
import Testing

@Suite("StringComparison")
struct StringComparisonTests {
    @Test func foldsCaseAndDiacritics() {
        #expect(StringComparison.exact.fold("Éclair") == "Éclair")
        #expect(StringComparison.caseInsensitive.fold("MiLk") == "milk")
        #expect(StringComparison.caseInsensitive.fold("Éclair") == StringComparison.caseInsensitive.fold("éCLAIR"))
        #expect(StringComparison.caseDiacriticInsensitive.fold("Éclair") == "eclair")
        #expect(StringComparison.caseDiacriticInsensitive.fold("Crème Brûlée") == "creme brulee")
    }

    @Test func localizedStandardComparesNumbersAsNumbers() {
        let fold = StringComparison.localizedStandard.fold
        #expect(fold("File 2") < fold("file 10"))
        #expect(fold("file 9") < fold("file 10"))
        #expect(fold("file 007") == fold("file 7"))
        #expect(fold("a1b2") < fold("a1b10"))
        #expect(fold("x 123456789") > fold("x 99999999"))
        #expect(fold("Äpfel 3") < fold("apfel 20"))
        let sorted = ["v10", "v2", "V1", "v1.5", "v1.10"].sorted { fold($0) < fold($1) }
        #expect(sorted == ["V1", "v1.5", "v1.10", "v2", "v10"])
    }
}

@Suite("SortValue")
struct SortValueTests {
    @Test func keysStayCompactAndOrderByKind() {
        #expect(MemoryLayout<SortValue>.stride <= 24)
        let values: [SortValue] = [.string("b"), .int(2), .null, .double(1.5), .bool(true), .opaque(OpaqueSortValue(7)), .string("a")]
        #expect(values.sorted() == [.null, .bool(true), .double(1.5), .int(2), .string("a"), .string("b"), .opaque(OpaqueSortValue(7))])
        #expect(OpaqueSortValue(3) < OpaqueSortValue(4) && OpaqueSortValue("x") == OpaqueSortValue("x"))
    }
}
