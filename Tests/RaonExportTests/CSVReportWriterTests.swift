import Foundation
@testable import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

@Suite final class CSVReportWriterTests {
  let fixture = TextExportFixture.self
  /// Output folders of this test, removed when it ends.
  private var folders: [URL] = []

  deinit {
    for folder in folders { try? FileManager.default.removeItem(at: folder) }
  }

  func written(_ options: ExportOptions = ExportOptions(), report: TestReport? = nil) throws
    -> (URL, ExportResult)
  {
    let out = try Fixtures.temporaryDirectory("raon-csv")
    folders.append(out)
    let result = try CSVReportWriter().write(
      report ?? fixture.report, into: out, options: options)
    return (out, result)
  }

  @Test func writesEveryContractFileWithBOMAndCRLF() throws {
    let (out, result) = try written()
    let names = [
      "programs.csv", "by_category.csv", "by_district.csv", "by_fee.csv", "by_duration.csv",
      "category_by_district.csv", "changes.csv",
    ]
    #expect(result.files == names.map { "csv/" + $0 })
    #expect(result.warnings.isEmpty)
    for name in names {
      let data = try Data(contentsOf: out.appendingPathComponent("csv/" + name))
      #expect(Array(data.prefix(3)) == [0xEF, 0xBB, 0xBF], "\(name) starts with a BOM")
      #expect(data.suffix(2) == Data([13, 10]), "\(name) ends its last row with CRLF")
    }
  }

  @Test func programsReadBackAsTheirCSVValues() throws {
    let (out, _) = try written()
    let rows = try CSVTestReader.readBOMFile(out.appendingPathComponent("csv/programs.csv"))
    #expect(rows.first == Program.csvColumns)
    #expect(rows.count == fixture.programs.count + 1)
    for (row, program) in zip(rows.dropFirst(), fixture.programs) {
      // The writer formats cells itself for speed; they must equal `csvValues`, apart
      // from the formula guard.
      let expected = program.csvValues.map { v -> String in
        let first = v.first
        let guarded =
          first == "=" || first == "+" || first == "@" || first == "\t" || first == "\r"
          || (first == "-" && Double(v) == nil)
        return guarded ? "'" + v : v
      }
      #expect(row == expected)
    }
  }

  @Test func quotesCommasQuotesAndLineBreaks() throws {
    let (out, _) = try written()
    let text = String(
      decoding: try Data(contentsOf: out.appendingPathComponent("csv/programs.csv")).dropFirst(3),
      as: UTF8.self)
    #expect(text.contains("\"<햄릿> 셰익스피어, \"\"원작\"\" 그대로\""))
    #expect(text.contains("\"가을 음악회\n(야외) A|B\""))
    #expect(text.contains("\"예술의전당\r\n야외무대\""))
    #expect(text.contains("\"R석 70,000원, S석 50,000원\""))
  }

  @Test func guardsFormulasButNotNegativeNumbers() throws {
    let (out, _) = try written()
    let rows = try CSVTestReader.readBOMFile(out.appendingPathComponent("csv/programs.csv"))
    let titles: [String: [String]] = Dictionary(
      uniqueKeysWithValues: rows.dropFirst().map { ($0[0], $0) })
    #expect(titles["cult:100003"]?[1] == "'=HYPERLINK(\"http://x\",\"y\")")
    #expect(titles["cult:100004"]?[1] == "'+1 특별전")
    #expect(titles["cult:100005"]?[1] == "'@SUM(A1) 어린이 코딩 교실")
    #expect(titles["cult:100006"]?[1] == "'-x 현대무용")
    #expect(titles["cult:100006"]?[4] == "-3")
  }

  @Test func formulaGuardRules() {
    func guarded(_ s: String) -> Bool {
      var s = s
      return s.withUTF8 { CSVFileWriter.needsFormulaGuard($0) }
    }
    for text in ["=1+1", "+1", "@SUM(A1)", "-x", "\tx", "\rx", "-", "--3", "-1+1", "-1.", "-.5"] {
      #expect(guarded(text), "\(text.debugDescription) is guarded")
    }
    for text in ["-3", "-12.5", "3", "", "가=나", "a-b", "0"] {
      #expect(!guarded(text), "\(text.debugDescription) is left alone")
    }
  }

  @Test func pythonReadsTheSameRows() throws {
    let (out, _) = try written()
    let url = out.appendingPathComponent("csv/programs.csv")
    guard let python = try Python.readCSV(url, encoding: "utf-8-sig") else { return }
    #expect(python == (try CSVTestReader.readBOMFile(url)))
  }

  @Test func groupAndBandTablesHaveDocumentedHeadersAndPlainNumbers() throws {
    let (out, _) = try written()
    let categories = try CSVTestReader.readBOMFile(out.appendingPathComponent("csv/by_category.csv"))
    #expect(categories.first == CSVReportWriter.groupColumns)
    #expect(
      categories.first
        == ["key", "count", "free", "paid", "median_duration_days", "median_fee_min_krw", "share", "unknown"])
    // 전시/미술: 4 programs (3 free), durations 1, 214, 366 (one invalid) → median 214;
    // one paid program at 5,000원.
    let art = categories.first { $0.first == "전시/미술" }
    #expect(art == ["전시/미술", "4", "3", "1", "214", "5000", "0.3333333333333333", "0"])
    // 콘서트: durations 3 and 1 → 2; paid fee mins 50000 only (the other has none).
    let concert = categories.first { $0.first == "콘서트" }
    #expect(concert == ["콘서트", "2", "0", "2", "2", "50000", "0.16666666666666666", "0"])
    // A group with no duration and no paid fee leaves both medians empty.
    let fee = try CSVTestReader.readBOMFile(out.appendingPathComponent("csv/by_fee.csv"))
    #expect(fee.first == ["key", "count", "label"])
    #expect(fee.dropFirst().map { $0[0] } == ["free", "1-10000", "10001-30000", "30001-50000", "50001-100000", "100001+", "unknown"])
    #expect(fee[2] == ["1-10000", "2", "1~10,000원"])
    let duration = try CSVTestReader.readBOMFile(out.appendingPathComponent("csv/by_duration.csv"))
    #expect(duration[2] == ["2-7", "3", "2~7일"])
  }

  @Test func emptyMediansAreEmptyCellsAndHalfValuesKeepTheirDecimal() throws {
    var report = fixture.report
    report.tables.byCategory = [
      GroupStats(key: "없음", count: 1, free: 1, paid: 0, medianDurationDays: nil, medianFeeMinKrw: nil, share: 1),
      GroupStats(key: "반", count: 2, free: 0, paid: 2, medianDurationDays: 2.5, medianFeeMinKrw: 12500, share: 0.000001),
      GroupStats(key: "옛", count: 3, free: 1, paid: 0, unknown: 2, medianDurationDays: nil, medianFeeMinKrw: nil, share: 0.5),
    ]
    let (out, _) = try written(report: report)
    let rows = try CSVTestReader.readBOMFile(out.appendingPathComponent("csv/by_category.csv"))
    #expect(rows[1] == ["없음", "1", "1", "0", "", "", "1", "0"])
    #expect(rows[2] == ["반", "2", "0", "2", "2.5", "12500", "0.000001", "0"])
    // A catalog before 2024: free + paid + unknown = count.
    #expect(rows[3] == ["옛", "3", "1", "0", "", "", "0.5", "2"])
  }

  @Test func crossTableHasCategoryRowsDistrictColumnsAndTotals() throws {
    let (out, _) = try written()
    let rows = try CSVTestReader.readBOMFile(
      out.appendingPathComponent("csv/category_by_district.csv"))
    let table = fixture.tables.categoryByDistrict
    #expect(rows.first == ["category"] + table.columnKeys + ["total"])
    #expect(rows.count == table.rowKeys.count + 2)
    #expect(rows.dropFirst().dropLast().map { $0[0] } == table.rowKeys)
    for row in rows.dropFirst() {
      let cells = row.dropFirst().compactMap { Int($0) }
      #expect(cells.count == table.columnKeys.count + 1)
      #expect(cells.dropLast().reduce(0, +) == cells.last)
    }
    #expect(rows.last?.first == "total")
    #expect(rows.last?.last == "12")
  }

  @Test func changesHaveOneRowPerProgramAndPerChangedField() throws {
    let (out, _) = try written()
    let rows = try CSVTestReader.readBOMFile(out.appendingPathComponent("csv/changes.csv"))
    #expect(rows.first == [
      "change", "id", "title", "field", "old_value", "new_value", "category", "district",
      "start_date", "end_date", "kind", "minor",
    ])
    #expect(rows.dropFirst().map { $0[0] } == ["added", "added", "added", "removed", "removed", "changed", "changed", "changed", "changed", "changed"])
    // A fee change is material; the removed film festival ended (31 August) before the
    // snapshot's day.
    #expect(rows[6] == [
      "changed", "cult:100001", "서울 재즈 페스티벌 2024", "fee_text", "전석 40,000원", "전석 50,000원",
      "콘서트", "마포구", "2024-09-13", "2024-09-15", "material", "false",
    ])
    #expect(rows[4] == [
      "removed", "cult:900001", "여름밤 | 영화제", "", "", "", "영화", "광진구", "2024-08-01",
      "2024-08-31", "ended", "",
    ])
  }

  @Test func changesWithoutComparisonIsHeaderOnly() throws {
    let (out, _) = try written(report: fixture.reportWithoutComparison)
    let data = try Data(contentsOf: out.appendingPathComponent("csv/changes.csv"))
    #expect(data == Data([0xEF, 0xBB, 0xBF] + Array("change,id,title,field,old_value,new_value,category,district,start_date,end_date,kind,minor\r\n".utf8)))
  }

  @Test func writeComparisonWritesChangesCSVOnly() throws {
    let out = try Fixtures.temporaryDirectory("raon-csv-diff")
    folders.append(out)
    let result = try CSVReportWriter().writeComparison(
      fixture.diff, from: fixture.previous, to: fixture.snapshot, into: out,
      options: ExportOptions())
    #expect(result.files == ["csv/changes.csv"])
    let listing = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("csv").path)
    #expect(listing == ["changes.csv"])
  }

  @Test func plainUTF8HasNoBOM() throws {
    let (out, _) = try written(ExportOptions(csvEncoding: .utf8))
    let data = try Data(contentsOf: out.appendingPathComponent("csv/by_fee.csv"))
    #expect(String(decoding: data, as: UTF8.self).hasPrefix("key,count,label\r\n"))
  }

  @Test func cp949RoundTripsAndCountsWhatItCannotHold() throws {
    let (out, result) = try written(ExportOptions(csvEncoding: .cp949))
    // 🎵 is the only character of the fixture CP949 has no code for (㈜ it has).
    #expect(result.warnings == ["csv/programs.csv: 1 character CP949 cannot hold was written as '?'"])
    let url = out.appendingPathComponent("csv/programs.csv")
    let data = try Data(contentsOf: url)
    #expect(Array(data.prefix(2)) != [0xEF, 0xBB])
    guard let rows = try Python.readCSV(url, encoding: "cp949") else { return }
    let utf8Rows = try CSVTestReader.readBOMFile(try written().0.appendingPathComponent("csv/programs.csv"))
    #expect(rows.count == utf8Rows.count)
    for (a, b) in zip(rows, utf8Rows) {
      #expect(a == b.map { $0.replacingOccurrences(of: "🎵", with: "?") })
    }
  }

  @Test func cp949ConverterReplacesEachUnrepresentableCharacterOnce() throws {
    let converter = try CP949Converter()
    let bytes = converter.convert(Array("가😀나€ é\u{1F600}".utf8))
    // 가 B0A1, ? , 나 B3AA, € A2E6, space, é → ?, 😀 → ?
    #expect(bytes == [0xB0, 0xA1, 0x3F, 0xB3, 0xAA, 0xA2, 0xE6, 0x20, 0x3F, 0x3F])
    #expect(converter.replacements == 3)
  }

  @Test func goldenCSVFiles() throws {
    let (out, _) = try written()
    for name in [
      "programs.csv", "by_category.csv", "by_district.csv", "by_fee.csv", "by_duration.csv",
      "category_by_district.csv", "changes.csv",
    ] {
      try Golden.checkFile("csv/" + name, in: out)
    }
  }

  /// Programs handed over in several chunks (as a large catalog is read from the store)
  /// are written as one table, in order. Speed is measured by `raon-bench`, not here.
  @Test func writesProgramsHandedOverInChunks() throws {
    var report = fixture.reportWithoutComparison
    let base = fixture.programs
    let many = (0..<50_000).map { i in
      var p = base[i % base.count]
      p.id = "cult:\(200_000 + i)"
      return p
    }
    let chunkSize = 7_000
    report.programs = ProgramChunks(count: many.count) { body in
      for start in stride(from: 0, to: many.count, by: chunkSize) {
        guard try body(Array(many[start..<min(start + chunkSize, many.count)])) else { return }
      }
    }
    let (out, _) = try written(report: report)
    let rows = try CSVTestReader.readBOMFile(out.appendingPathComponent("csv/programs.csv"))
    let ids = rows.dropFirst().map { $0[0] }
    #expect(ids == many.map(\.id))
  }
}
