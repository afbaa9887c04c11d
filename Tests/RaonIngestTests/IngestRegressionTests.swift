import Foundation
import Testing

@testable import RaonIngest

/// Regressions of the hardening work, each named after what was found.
@Suite struct IngestRegressionTests {
  /// Found by IngestLimitsTests (100 MB line of commas): the reader made one
  /// value per comma — 50 million values and a 2 GiB allocation for the fields array alone
  /// (libFuzzer's csv target, replaying the file: "out-of-memory (malloc(2147483680))",
  /// 1.7 GB peak RSS). A record may now have at most `maxFieldsPerRecord` fields.
  @Test func aRecordWithTooManyFieldsIsRefusedWithItsLine() throws {
    let limit = CSVCatalogReader.maxFieldsPerRecord
    let header = "분류,자치구,공연/행사명,장소,유무료\n"
    // One value, so the record is not blank (a line of bare commas is skipped: issue 27).
    let atLimit = "x" + String(repeating: ",", count: limit - 1) + "\n"
    let batch = try CSVCatalogReader.read(Data((header + atLimit).utf8), source: "wide.csv")
    #expect(batch.records.first?.values.count == limit)

    let over = String(repeating: ",", count: limit) + "\n"
    #expect(
      throws: CSVCatalogError.tooManyFields(source: "wide.csv", line: 3, limit: limit)
    ) {
      _ = try CSVCatalogReader.read(Data((header + atLimit + over).utf8), source: "wide.csv")
    }
    // In the header too.
    #expect(throws: CSVCatalogError.tooManyFields(source: "h.csv", line: 1, limit: limit)) {
      _ = try CSVCatalogReader.read(Data(over.utf8), source: "h.csv")
    }
  }

  /// Found by review while writing KeyRedactorURLFormsTests: see
  /// `KeyRedactorURLFormsTests.lowerCaseEscapesAreRedacted`.
  @Test func aProxyEchoingTheKeyWithLowerCaseEscapesIsRedacted() {
    #expect(KeyRedactor(key: "a/b").redact("502 while requesting /a%2fb/json") == "502 while requesting /****/json")
  }
}
