/// Formats results as a readable table or as JSON.
enum Report {
    static func table(_ results: [BenchmarkResult]) -> String {
        let header = ["name", "median", "min", "baseline", "baseline median", "speedup", "bytes/object"]
        var rows = [header]
        for r in results {
            var memory = ""
            if let bytes = r.bytesPerObject {
                memory = format(bytes, digits: 1)
                if let base = r.baselineBytesPerObject { memory += " (baseline \(format(base, digits: 1)))" }
            }
            if !r.extra.isEmpty { memory += r.extra.map { "\($0.name) \($0.value)" }.joined(separator: ", ") }
            if let reference = r.reference, let ratio = r.referenceRatio {
                if !memory.isEmpty { memory += ", " }
                memory += "\(reference.name) \(duration(reference.median)) (subject \(format(ratio, digits: 2))×)"
            }
            rows.append([
                r.name, duration(r.median), duration(r.min), r.baseline, duration(r.baselineMedian),
                format(r.speedup, digits: 2) + "×", memory,
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.enumerated().map { index, row in
            let line = row.enumerated().map { column, cell in
                cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
            return index == 0 ? line + "\n" + String(repeating: "-", count: line.count) : line
        }.joined(separator: "\n")
    }

    static func json(_ results: [BenchmarkResult]) -> String {
        let objects = results.map { r -> String in
            var fields = [
                "\"name\": \(quoted(r.name))",
                "\"median_s\": \(number(r.median))",
                "\"min_s\": \(number(r.min))",
                "\"baseline\": \(quoted(r.baseline))",
                "\"baseline_median_s\": \(number(r.baselineMedian))",
                "\"speedup\": \(number(r.speedup))",
            ]
            if let bytes = r.bytesPerObject { fields.append("\"bytes_per_object\": \(number(bytes))") }
            if let bytes = r.baselineBytesPerObject { fields.append("\"baseline_bytes_per_object\": \(number(bytes))") }
            for (name, value) in r.extra { fields.append("\(quoted(name)): \(value)") }
            if let reference = r.reference {
                fields.append("\"reference\": \(quoted(reference.name))")
                fields.append("\"reference_median_s\": \(number(reference.median))")
            }
            return "  {" + fields.joined(separator: ", ") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]"
    }

    static func duration(_ seconds: Double) -> String {
        switch seconds {
        case ..<1e-6: return format(seconds * 1e9, digits: 1) + " ns"
        case ..<1e-3: return format(seconds * 1e6, digits: 1) + " µs"
        case ..<1: return format(seconds * 1e3, digits: 2) + " ms"
        default: return format(seconds, digits: 3) + " s"
        }
    }

    static func format(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return value > 0 ? "inf" : "nan" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        } else if digits > 0 {
            text += "." + String(repeating: "0", count: digits)
        }
        return text
    }

    private static func number(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "null"
    }

    private static func quoted(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "\"" + escaped + "\""
    }
}
