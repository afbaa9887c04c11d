import Foundation
import RaonCore
import Testing
import TestSupport

@testable import RaonIngest

/// Other downloads of the same catalog: re-encoded, re-labelled, damaged by a spreadsheet.
/// Each is generated here from the sample and must give the same programs.
@Suite struct SampleVariantsTests {
  static func original() throws -> (text: DecodedText, batch: CatalogBatch) {
    let data = try Data(contentsOf: Fixtures.sampleCSV)
    let text = try CatalogTextDecoder.decode(data, source: "sample.csv")
    return (text, try CSVCatalogReader.read(text, source: "sample.csv"))
  }

  /// RFC 4180 text with every field quoted, LF line ends.
  static func csv(header: [String], rows: [[String?]]) -> Data {
    func quote(_ value: String) -> String {
      "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    var lines = [header.map(quote).joined(separator: ",")]
    for row in rows { lines.append(row.map { quote($0 ?? "") }.joined(separator: ",")) }
    return Data(lines.joined(separator: "\n").utf8)
  }

  static func portalIDs(_ batch: CatalogBatch) -> [String?] {
    batch.records.map { $0[.portalURL].flatMap(ProgramID.fromPortalURL) }
  }

  /// Every canonical field's value except `excluded`, per record.
  static func values(_ batch: CatalogBatch, excluding excluded: Set<CanonicalField>)
    -> [[CanonicalField: String]]
  {
    batch.records.map { record in
      var out: [CanonicalField: String] = [:]
      for field in CanonicalField.allCases where !excluded.contains(field) {
        out[field] = record[field]
      }
      return out
    }
  }

  @Test func utf8CopyGivesTheSameRecords() throws {
    let (text, batch) = try Self.original()
    let copy = try CSVCatalogReader.read(Data(text.utf8), source: "sample.utf8.csv")
    #expect(copy.records.count == 4_998)
    #expect(copy.records.map(\.values) == batch.records.map(\.values))
    // A U+FFFD in a UTF-8 file is the file's own character, not a replacement.
    #expect(copy.records.filter(\.invalidBytesReplaced).isEmpty)
  }

  @Test func utf8WithBOMCopyGivesTheSameRecords() throws {
    let (text, batch) = try Self.original()
    let copy = try CSVCatalogReader.read(
      Data([0xEF, 0xBB, 0xBF] + text.utf8), source: "sample.bom.csv")
    #expect(copy.records.count == 4_998)
    #expect(copy.records.first?.names.names.first == "분류")  // no BOM in the first name
    #expect(copy.records.map(\.values) == batch.records.map(\.values))
  }

  @Test func swappedCoordinateLabelsStillResolve() throws {
    let (_, batch) = try Self.original()
    var header = try #require(batch.records.first?.names.names)
    #expect(header[18] == "위도(X좌표)" && header[19] == "경도(Y좌표)")
    header[18] = "위도(Y좌표)"
    header[19] = "경도(X좌표)"
    let copy = try CSVCatalogReader.read(
      Self.csv(header: header, rows: batch.records.map(\.values)), source: "relabelled.csv")
    #expect(copy.records.count == 4_998)
    #expect(Self.portalIDs(copy) == Self.portalIDs(batch))
    #expect(Self.values(copy, excluding: []) == Self.values(batch, excluding: []))
  }

  @Test func exchangedCoordinateHeadersKeepOtherFields() throws {
    // The two columns' headers trade places (values stay): what was read as coordinate A
    // is now read as B. The normaliser assigns latitude/longitude by value range, so the
    // reader only has to keep both values and every other field unchanged.
    let (_, batch) = try Self.original()
    var header = try #require(batch.records.first?.names.names)
    header.swapAt(18, 19)
    let copy = try CSVCatalogReader.read(
      Self.csv(header: header, rows: batch.records.map(\.values)), source: "exchanged.csv")
    #expect(copy.records.count == 4_998)
    #expect(Self.portalIDs(copy) == Self.portalIDs(batch))
    let coordinates: Set<CanonicalField> = [.coordinateA, .coordinateB]
    #expect(
      Self.values(copy, excluding: coordinates) == Self.values(batch, excluding: coordinates))
    #expect(copy.records.map { $0[.coordinateA] } == batch.records.map { $0[.coordinateB] })
    #expect(copy.records.map { $0[.coordinateB] } == batch.records.map { $0[.coordinateA] })
  }

  @Test func destroyedStartAndEndDatesKeepEverythingElse() throws {
    let (_, batch) = try Self.original()
    let header = try #require(batch.records.first?.names.names)
    let rows = batch.records.map { record -> [String?] in
      var values = record.values
      values[15] = "00:00.0"  // 시작일
      values[16] = "00:00.0"  // 종료일
      return values
    }
    let copy = try CSVCatalogReader.read(Self.csv(header: header, rows: rows), source: "excel.csv")
    #expect(copy.records.count == 4_998)
    #expect(Self.portalIDs(copy) == Self.portalIDs(batch))
    let dates: Set<CanonicalField> = [.startDate, .endDate]
    #expect(Self.values(copy, excluding: dates) == Self.values(batch, excluding: dates))
    #expect(copy.records.allSatisfy { $0[.startDate] == "00:00.0" && $0[.endDate] == "00:00.0" })
    #expect(copy.records.allSatisfy { $0[.dateText]?.contains("~") == true })
  }

  @Test func crlfCopyGivesTheSameRecordsAndLines() throws {
    let (text, batch) = try Self.original()
    let crlf = String(decoding: text.utf8, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n")
    let copy = try CSVCatalogReader.read(Data(crlf.utf8), source: "sample.crlf.csv")
    #expect(copy.records.map(\.values) == batch.records.map(\.values))
    #expect(copy.records.map { $0.location?.line } == batch.records.map { $0.location?.line })
  }
}
