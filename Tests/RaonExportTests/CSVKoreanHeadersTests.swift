import Foundation
import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

/// `--csv-headers ko`: Korean header rows, column for column; the values never change.
@Suite struct CSVKoreanHeadersTests {
  static let files = [
    "programs.csv", "by_category.csv", "by_district.csv", "by_fee.csv", "by_duration.csv",
    "category_by_district.csv", "changes.csv",
  ]

  static func rows(_ headers: CSVHeaders) throws -> [String: [[String]]] {
    let out = try Fixtures.temporaryDirectory("raon-csv-ko")
    defer { try? FileManager.default.removeItem(at: out) }
    _ = try CSVReportWriter().write(
      TextExportFixture.report, into: out, options: ExportOptions(csvHeaders: headers))
    var result: [String: [[String]]] = [:]
    for name in files {
      result[name] = try CSVTestReader.readBOMFile(out.appendingPathComponent("csv/" + name))
    }
    return result
  }

  @Test func englishHeadersStayTheDefault() throws {
    #expect(ExportOptions().csvHeaders == .en)
    let en = try Self.rows(.en)
    #expect(en["programs.csv"]?.first == Program.csvColumns)
    #expect(en["by_category.csv"]?.first == CSVReportWriter.groupColumns)
  }

  @Test func koreanHeadersComeFromTheColumnTableAndTheLabels() throws {
    let ko = try Self.rows(.ko)
    #expect(ko["programs.csv"]?.first == ProgramColumn.allCases.map(\.koreanTitle))
    #expect(ko["programs.csv"]?.first?.prefix(3) == ["ID", "공연/행사명", "분류"])
    #expect(ko["by_category.csv"]?.first == ["분류", "건수", "무료", "유료", "기간 중앙값(일)", "최저요금 중앙값(원)", "비율", "유무료 미상"])
    #expect(ko["by_district.csv"]?.first?.first == "자치구")
    #expect(ko["by_fee.csv"]?.first == ["요금대 코드", "건수", "요금대"])
    #expect(ko["by_duration.csv"]?.first == ["기간 코드", "건수", "기간"])
    #expect(ko["category_by_district.csv"]?.first?.first == "분류")
    #expect(ko["category_by_district.csv"]?.first?.last == "합계")
    #expect(ko["changes.csv"]?.first?.prefix(10) == ["구분", "ID", "공연/행사명", "항목", "이전 값", "새 값", "분류", "자치구", "시작일", "종료일"])
    #expect(ko["changes.csv"]?.first?.count == CSVReportWriter.changeColumns.count)
  }

  @Test func onlyTheHeaderRowChanges() throws {
    let en = try Self.rows(.en), ko = try Self.rows(.ko)
    for name in Self.files {
      let e = try #require(en[name]), k = try #require(ko[name])
      #expect(e.first?.count == k.first?.count, "\(name): same columns")
      #expect(Array(e.dropFirst()) == Array(k.dropFirst()), "\(name): same values (codes stay)")
      if name == "category_by_district.csv" {
        // The districts are data keys, the same in both.
        #expect(e.first?.dropFirst().dropLast() == k.first?.dropFirst().dropLast())
      }
    }
  }
}
