import Foundation
import RaonCore
import Testing
import TestSupport

@testable import RaonIngest

/// Every shape the catalog is passed around in (``SampleShapes``), read without loss and
/// checked against Python's reading of the sample.
@Suite(.serialized) struct CatalogShapesTests {
  static func programs(_ batch: CatalogBatch) -> [Program] {
    batch.records.map(ProgramNormalizer.normalize)
  }

  static func categoryCounts(_ programs: [Program]) -> [String: Int] {
    programs.reduce(into: [:]) { $0[$1.category, default: 0] += 1 }
  }

  // MARK: - Header labels

  @Test func labelsRewrittenByAScriptStillMatch() throws {
    for (label, field) in [
      ("공연_행사명", CanonicalField.title), ("날짜_시간", .dateText), ("홈페이지_주소", .orgLink),
      ("시민_기관", .ticket), ("경도_X좌표_", .coordinateB), ("위도_Y좌표_", .coordinateA),
      ("위도(X좌표)", .coordinateA), ("경도 (y좌표)", .coordinateB), ("홈페이지?주소", .orgLink),
      ("이용\u{00A0}대상", .audience), (" 유무료 ", .isFree), ("문화포털상세url", .portalURL),
      // NFD (decomposed jamo), as some file systems and macOS tools write Hangul.
      ("분류".decomposedStringWithCanonicalMapping, .category), ("lat", .coordinateA),
    ] {
      #expect(CanonicalField(sourceName: label) == field, "\(label)")
    }
    #expect(CanonicalField(sourceName: "번호") == nil)
    #expect(CanonicalField.isRowNumberLabel("번호"))
    #expect(CanonicalField(sourceName: "좌표값1") == nil)
  }

  @Test func aRelabelledFileWithRowNumbersReadsEveryField() throws {
    let expected = try SampleShapes.expected()
    let batch = try CatalogFileReader.read(SampleShapes.url("relabelled.csv"))
    #expect(batch.warnings.isEmpty, "\(batch.warnings)")
    #expect(batch.records.count == expected.ids.count)
    let names = try #require(batch.records.first?.names)
    #expect(names.names.first == "번호")  // kept in the raw record
    #expect(names.fields == Set(CatalogProfile.seoul.expected))
    let programs = Self.programs(batch)
    #expect(programs.map(\.id) == expected.ids)
    #expect(Self.categoryCounts(programs) == expected.categories)
    // The coordinates are read, not lost: as many rows have both as Python counted.
    #expect(programs.filter { $0.latitude != nil && $0.longitude != nil }.count == expected.coordinateRows)
    #expect(programs.filter { $0.qualityFlags.contains(.coordsMissing) }.isEmpty)
    #expect(programs.map { $0.startDate?.description ?? "" } == expected.startDays.map { CalendarDay(iso: $0)?.description ?? "" })
  }

  // MARK: - Before 2024 and 2026

  @Test func aCatalogWithoutAFreeFlagCountsFreePaidAndUnknownFromTheFeeText() throws {
    let expected = try SampleShapes.expected()
    let batch = try CatalogFileReader.read(SampleShapes.url("no-free-flag.csv"))
    let programs = Self.programs(batch)
    #expect(programs.map(\.id) == expected.ids)
    func counts(_ isFree: Bool?) -> [String: Int] {
      programs.filter { $0.isFree == isFree }.reduce(into: [:]) { $0[$1.category, default: 0] += 1 }
    }
    #expect(counts(true) == expected.noFlagFree)
    #expect(counts(false) == expected.noFlagPaid)
    #expect(counts(nil) == expected.noFlagUnknown)
    #expect(expected.noFlagUnknown.values.reduce(0, +) > 1_000)  // the sample's 2,646 empty fee texts
    #expect(programs.allSatisfy { $0.qualityFlags.contains(.freeFlagMissing) })
    // Written as the contract says: empty in programs.csv for unknown.
    let unknown = try #require(programs.first { $0.isFree == nil })
    #expect(ProgramColumn.isFree.text(of: unknown) == "")
  }

  @Test func todaysLayoutReadsInquiryEventTimeAndBothCoordinates() throws {
    let expected = try SampleShapes.expected()
    let batch = try CatalogFileReader.read(SampleShapes.url("layout-2026.csv"))
    #expect(batch.warnings.isEmpty, "\(batch.warnings)")
    let programs = Self.programs(batch)
    let sample = Self.programs(try CatalogFileReader.read(Fixtures.sampleCSV))
    #expect(programs.map(\.id) == expected.ids)
    #expect(programs.map(\.inquiry) == expected.inquiries)
    #expect(programs.map(\.eventTime) == expected.eventTimes)
    // The coordinates land on the same axes as in the sample, whatever the labels say.
    #expect(programs.map(\.latitude) == sample.map(\.latitude))
    #expect(programs.map(\.longitude) == sample.map(\.longitude))
    #expect(Program.csvColumns.suffix(2) == ["inquiry", "event_time"])
    #expect(sample.allSatisfy { $0.inquiry.isEmpty && $0.eventTime.isEmpty })
  }

  @Test func aKnownColumnNoLabelMatchesIsNamedInAWarning() throws {
    let expected = try SampleShapes.expected()
    let url = try SampleShapes.url("unknown-label.csv")
    let batch = try CatalogFileReader.read(url)
    #expect(batch.warnings.count == 1)
    let warning = try #require(batch.warnings.first)
    #expect(warning.contains("위도(X좌표)") && warning.contains("좌표값1"), "\(warning)")
    #expect(warning.hasPrefix("unknown-label.csv:1:") && !warning.contains("\n"))
    // Nothing dropped: the raw records keep the column under its own label.
    #expect(batch.records.count == expected.ids.count)
    #expect(batch.records.allSatisfy { !($0[name: "좌표값1"] ?? "").isEmpty })
    // The streaming reader says the same.
    var streamed = 0
    let summary = try CatalogFileReader.forEachChunk(url, chunkSize: 1_000) { streamed += $0.count }
    #expect(summary.warnings == batch.warnings && streamed == expected.ids.count)
  }

  // MARK: - Truncated downloads

  @Test func aDownloadCutInsideARecordIsRefused() throws {
    let expected = try SampleShapes.expected()
    let url = try SampleShapes.url("truncated.csv")
    for read in [
      { _ = try CatalogFileReader.read(url) },
      { _ = try CatalogFileReader.forEachChunk(url, chunkSize: 100) { _ in } },
    ] as [() throws -> Void] {
      do {
        try read()
        Issue.record("a truncated file was read")
      } catch let error as CSVCatalogError {
        #expect(error == .truncated(source: "truncated.csv", line: expected.cutLine, fields: 5, expected: 22))
        #expect(error.description.contains("cut short") && !error.description.contains("\n"))
      }
    }
  }

  @Test func aDownloadCutAtARecordBoundaryReadsWhatItHas() throws {
    // Refused later, by the store's shrink guard (see the workflow tests).
    let expected = try SampleShapes.expected()
    let batch = try CatalogFileReader.read(SampleShapes.url("cut-at-boundary.csv"))
    #expect(Self.programs(batch).map(\.id) == Array(expected.ids.prefix(expected.rowsBeforeCut)))
  }

  // MARK: - Spreadsheets

  @Test func theSampleSavedAsXLSXReadsTheSame() throws {
    let expected = try SampleShapes.expected()
    let url = try SampleShapes.url("sample.xlsx")
    let batch = try CatalogFileReader.read(url)
    #expect(batch.warnings.isEmpty, "\(batch.warnings)")
    #expect(batch.records.count == expected.ids.count)
    #expect(batch.sourceTotal == expected.ids.count)
    let programs = Self.programs(batch)
    #expect(programs.map(\.id) == expected.ids)
    #expect(Self.categoryCounts(programs) == expected.categories)
    #expect(programs.filter { $0.latitude != nil && $0.longitude != nil }.count == expected.coordinateRows)
    // Dates came as Excel serials in a date format and read as the CSV's days.
    #expect(programs.map { $0.startDate?.description ?? "" } == expected.startDays.map { CalendarDay(iso: $0)?.description ?? "" })
    #expect(batch.records.first?[.startDate]?.hasSuffix(" 00:00:00") == true)
    // The same programs as the CSV, field by field (the sample's one invalid byte aside).
    let csv = Self.programs(try CatalogFileReader.read(Fixtures.sampleCSV))
    #expect(zip(programs, csv).filter { $0.0.title != $0.1.title }.count <= 1)
    #expect(zip(programs, csv).allSatisfy { $0.0.endDate == $0.1.endDate && $0.0.isFree == $0.1.isFree })
    // Streamed: the same records, one chunk, with the file's hash.
    var streamed: [RawRecord] = []
    let summary = try CatalogFileReader.forEachChunk(url, chunkSize: 1_000) { streamed += $0 }
    #expect(streamed == batch.records)
    #expect(summary.inputSHA256 == batch.inputSHA256)
    #expect(summary.inputSHA256 == (try Self.sha256(url)))
  }

  @Test func inlineStringsThe1904SystemAndTheFirstSheetAreRead() throws {
    let expected = try SampleShapes.expected()
    let batch = try CatalogFileReader.read(SampleShapes.url("inline.xlsx"))
    let programs = Self.programs(batch)
    #expect(programs.map(\.id) == Array(expected.ids.prefix(expected.smallRows)))
    #expect(programs.map { $0.startDate?.description ?? "" }
      == expected.startDays.prefix(expected.smallRows).map { CalendarDay(iso: $0)?.description ?? "" })
    #expect(batch.records.first?.location?.line == 3)  // the sheet's own row number
  }

  @Test func anHTMLTableSavedAsXLSReadsTheSame() throws {
    let expected = try SampleShapes.expected()
    let batch = try CatalogFileReader.read(SampleShapes.url("table.xls"))
    #expect(batch.warnings.isEmpty)
    let programs = Self.programs(batch)
    #expect(programs.map(\.id) == Array(expected.ids.prefix(expected.smallRows)))
    let csv = Array(Self.programs(try CatalogFileReader.read(Fixtures.sampleCSV)).prefix(expected.smallRows))
    #expect(programs.map(\.title) == csv.map(\.title))
    #expect(programs.map(\.feeText) == csv.map(\.feeText))
  }

  @Test(arguments: [
    ("binary.xls", "save it as .xlsx or CSV"), ("photos.zip", "not an Excel workbook"),
  ])
  func otherSpreadsheetsAreRefusedOnOneCleanLine(name: String, advice: String) throws {
    do {
      _ = try CatalogFileReader.read(SampleShapes.url(name))
      Issue.record("\(name) was read")
    } catch let error as SpreadsheetError {
      let text = error.description
      #expect(text.contains(name) && text.contains(advice) && text.contains("CSV"), "\(text)")
      #expect(!text.contains("\n"))
      // No bytes of the file: only printable text.
      #expect(text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0 != "\u{FFFD}" })
    }
  }

  static func sha256(_ url: URL) throws -> String {
    let result = try Python.run([
      "-c", "import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())",
      url.path,
    ])
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
