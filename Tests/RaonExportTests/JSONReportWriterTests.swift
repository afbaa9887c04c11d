import Foundation
@testable import RaonAnalytics
import RaonCore
import TestSupport
import Testing

@testable import RaonDocument
@testable import RaonExport

@Suite struct JSONReportWriterTests {
  let fixture = TextExportFixture.self

  func document(_ report: TestReport) throws -> (Data, [String: Any]) {
    let out = try Fixtures.temporaryDirectory("raon-json")
    let result = try JSONReportWriter().write(report, into: out, options: ExportOptions())
    #expect(result.files == ["report.json"])
    let data = try Data(contentsOf: out.appendingPathComponent("report.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return (data, object)
  }

  /// A JSON integer, not a float that happens to be whole (`3`, never `3.0`).
  func isInteger(_ value: Any?) -> Bool {
    // Foundation on Linux bridges 0 and 1 to Bool too, so the NSNumber's own type decides.
    guard let n = value as? NSNumber else { return false }
    let type = String(cString: n.objCType)
    return type != "d" && type != "f"
  }

  @Test func hasTheContractKeysAndItsExtensions() throws {
    let (_, json) = try document(fixture.report)
    let contract: Set = [
      "snapshot", "compareTo", "byCategory", "byDistrict", "byFee", "byDuration", "changes",
      "quality",
    ]
    let extensions: Set = [
      "week", "weekStart", "weekEnd", "totals", "thisWeek", "compareWeek", "categoryByDistrict",
      "previousWeek", "trend", "district",
    ]
    #expect(Set(json.keys) == contract.union(extensions))

    let snapshot = try #require(json["snapshot"] as? [String: Any])
    #expect(Set(snapshot.keys) == ["id", "takenAt", "source", "programCount", "sourceTotal"])
    #expect(snapshot["takenAt"] as? String == "2024-09-08T15:00:00Z")
    #expect(isInteger(snapshot["id"]) && isInteger(snapshot["programCount"]))
    let compare = try #require(json["compareTo"] as? [String: Any])
    #expect(Set(compare.keys) == ["id", "takenAt", "source", "programCount"])
    #expect(compare["takenAt"] as? String == "2024-09-01T15:00:00Z")
    #expect(json["week"] as? String == "2024-W37")
    #expect(json["weekStart"] as? String == "2024-09-09")
    #expect(json["weekEnd"] as? String == "2024-09-15")
  }

  @Test func groupsHaveIntegerCountsAndNumericOrNullMedians() throws {
    var report = fixture.report
    report.tables.byDistrict += [
      GroupStats(key: "빈 구", count: 0, free: 0, paid: 0, medianDurationDays: nil, medianFeeMinKrw: nil, share: 0),
      GroupStats(key: "반 구", count: 2, free: 0, paid: 2, medianDurationDays: 1.5, medianFeeMinKrw: 3, share: 0.5),
    ]
    let (data, json) = try document(report)
    for table in ["byCategory", "byDistrict"] {
      let rows = try #require(json[table] as? [[String: Any]])
      #expect(!rows.isEmpty)
      for row in rows {
        #expect(
          Set(row.keys)
            == ["key", "count", "free", "paid", "medianDurationDays", "medianFeeMinKrw", "share", "unknown"])
        #expect(isInteger(row["count"]) && isInteger(row["free"]) && isInteger(row["paid"]) && isInteger(row["unknown"]))
        for median in ["medianDurationDays", "medianFeeMinKrw"] {
          #expect(row[median] is NSNumber || row[median] is NSNull)
        }
      }
    }
    let districts = try #require(json["byDistrict"] as? [[String: Any]])
    let empty = try #require(districts.first { $0["key"] as? String == "빈 구" })
    #expect(empty["medianDurationDays"] is NSNull && empty["medianFeeMinKrw"] is NSNull)
    let text = String(decoding: data, as: UTF8.self)
    // Integral medians are written without ".0"; half values keep their decimal.
    #expect(!text.contains(".0,") && !text.contains(".0\n"))
    #expect(text.contains("\"medianDurationDays\": 214,"))
    #expect(text.contains("\"medianDurationDays\": 1.5,"))
  }

  @Test func bandsAreKeyAndIntegerCountInContractOrder() throws {
    let (_, json) = try document(fixture.report)
    let fee = try #require(json["byFee"] as? [[String: Any]])
    #expect(fee.map { $0["key"] as? String } == ["free", "1-10000", "10001-30000", "30001-50000", "50001-100000", "100001+", "unknown"])
    let duration = try #require(json["byDuration"] as? [[String: Any]])
    #expect(duration.map { $0["key"] as? String } == ["1", "2-7", "8-30", "31-90", "91-365", "366+", "invalid"])
    for row in fee + duration {
      #expect(Set(row.keys) == ["key", "count"])
      #expect(isInteger(row["count"]))
    }
    let quality = try #require(json["quality"] as? [[String: Any]])
    #expect(quality.first?["flag"] as? String == "coords_missing")
    #expect(quality.allSatisfy { Set($0.keys) == ["flag", "count"] && isInteger($0["count"]) })
  }

  @Test func changesListIdsAndChangedFields() throws {
    let (_, json) = try document(fixture.report)
    let changes = try #require(json["changes"] as? [String: Any])
    #expect(
      Set(changes.keys)
        == [
          "added", "removed", "changed", "addedIds", "removedIds", "changedIds", "changedFields",
          "removedEnded", "removedWithdrawn", "removedEndedIds", "removedWithdrawnIds",
          "changedMaterial", "changedMinor", "changedMaterialIds", "changedMinorIds",
        ])
    // By hand: 900001 ended on 31 August, before the snapshot's day (9 September); 900002
    // has no end day, so it was withdrawn. A fee and a title/place change are material.
    #expect(changes["removedEndedIds"] as? [String] == ["cult:900001"])
    #expect(changes["removedWithdrawnIds"] as? [String] == ["cult:900002"])
    #expect(changes["removedEnded"] as? Int == 1 && changes["removedWithdrawn"] as? Int == 1)
    #expect(changes["changedMaterialIds"] as? [String] == ["cult:100001", "cult:100002"])
    #expect(changes["changedMinorIds"] as? [String] == [])
    #expect(changes["added"] as? Int == 3 && isInteger(changes["added"]))
    #expect(changes["removedIds"] as? [String] == ["cult:900001", "cult:900002"])
    #expect(changes["changedIds"] as? [String] == ["cult:100001", "cult:100002"])
    let fields = try #require(changes["changedFields"] as? [String: [[String: String]]])
    #expect(fields["cult:100002"]?.first == ["field": "title", "old": "햄릿", "new": "<햄릿> 셰익스피어, \"원작\" 그대로"])
  }

  @Test func noComparisonGivesNulls() throws {
    let (_, json) = try document(fixture.reportWithoutComparison)
    #expect(json["compareTo"] is NSNull)
    #expect(json["changes"] is NSNull)
    #expect(json["compareWeek"] is NSNull)
  }

  @Test func escapesControlCharactersAndKeepsKoreanAsUTF8() throws {
    var out = ""
    JSONValue.writeString("가\"\\\n\t\u{01}\u{2028}/", to: &out)
    #expect(out == "\"가\\\"\\\\\\n\\t\\u0001\\u2028/\"")
    let (data, _) = try document(fixture.report)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains("\"new\": \"<햄릿> 셰익스피어, \\\"원작\\\" 그대로\""))
    #expect(text.contains("\"key\": \"전시/미술\""))
    #expect(!text.contains("\\u"))
  }

  @Test func isDeterministicAndPrettyPrintedWithTwoSpaces() throws {
    let (a, _) = try document(fixture.report)
    let (b, _) = try document(fixture.report)
    #expect(a == b)
    let text = String(decoding: a, as: UTF8.self)
    #expect(text.hasPrefix("{\n  \"snapshot\": {\n    \"id\": 2,\n"))
    #expect(text.hasSuffix("}\n"))
  }

  @Test func writeComparisonWritesChangesJSON() throws {
    let out = try Fixtures.temporaryDirectory("raon-json-diff")
    let result = try JSONReportWriter().writeComparison(
      fixture.diff, from: fixture.previous, to: fixture.snapshot, into: out,
      options: ExportOptions())
    #expect(result.files == ["changes.json"])
    let data = try Data(contentsOf: out.appendingPathComponent("changes.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(
      Set(json.keys)
        == [
          "from", "to", "added", "removed", "changed", "addedIds", "removedIds", "changedIds", "changedFields",
          // The report's split (DESIGN.md, report.json `changes`), shared with `raon diff`.
          "removedEnded", "removedWithdrawn", "removedEndedIds", "removedWithdrawnIds", "changedMaterial",
          "changedMinor", "changedMaterialIds", "changedMinorIds",
        ])
    #expect((json["from"] as? [String: Any])?["id"] as? Int == 1)
    #expect((json["to"] as? [String: Any])?["id"] as? Int == 2)
    try Golden.check(data, "changes.json")
  }

  @Test func goldenReportJSON() throws {
    let (data, _) = try document(fixture.report)
    try Golden.check(data, "report.json")
  }

  @Test func decimalTextIsShortestAndNeverExponential() {
    #expect(DecimalText.shortest(3) == "3")
    #expect(DecimalText.shortest(-0.0) == "0")
    #expect(DecimalText.shortest(2.5) == "2.5")
    #expect(DecimalText.shortest(0.00001) == "0.00001")
    #expect(DecimalText.shortest(1.5e-7) == "0.00000015")
    #expect(DecimalText.shortest(-2.5e20) == "-250000000000000000000")
    #expect(DecimalText.shortest(1e300)?.count == 301)
    #expect(DecimalText.shortest(1e15) == "1000000000000000")
    #expect(DecimalText.shortest(.nan) == nil)
    #expect(DecimalText.grouped(12500) == "12,500")
    #expect(DecimalText.grouped(1234.56) == "1,234.6")
    #expect(DecimalText.grouped(-0.04) == "0")
  }

  @Test func timesAreUTCWithZAndKoreaInKST() {
    let date = Date(timeIntervalSince1970: 1_725_807_600.75)
    #expect(ReportTime.iso8601UTC(date) == "2024-09-08T15:00:00Z")
    #expect(ReportTime.korea(date) == "2024-09-09 00:00 KST")
    #expect(ReportTime.iso8601UTC(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
  }
}
