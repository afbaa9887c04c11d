import Foundation
import RaonAnalytics
import RaonCore
import Testing

@testable import RaonWorkflow

/// `[national]`'s settings for the lineage found in the data, and the `raon.toml` lines a
/// report prints to keep or refuse it: they parse, and mean what the report applied.
@Suite("National lineage: raon.toml lines")
struct NationalLineageConfigTests {
  static let day = CalendarDay(iso: "2025-04-07")!

  static let findings = [
    LineageFinding(kind: .provinceRenamed, old: ["충청북도"], new: "충북특별자치도", day: day, matched: 268, expected: 268, providers: 11),
    LineageFinding(
      kind: .merged, old: ["충청북도 음성군", "충청북도 진천군"], new: "충북특별자치도 진천음성시", day: day, matched: 62,
      expected: 62, providers: 2),
  ]

  @Test func theLinesThatKeepAFindingParseIntoTheLineageItApplied() throws {
    let lines = NationalConfig.keepLines(Self.findings)
    #expect(lines == [
      "[national]",
      "renames = [{ old = \"충청북도\", new = \"충북특별자치도\", since = 2025-04-07 }]",
      "merges = [{ from = \"충청북도 음성군\", into = \"충북특별자치도 진천음성시\", on = 2025-04-07 }, { from = \"충청북도 진천군\", into = \"충북특별자치도 진천음성시\", on = 2025-04-07 }]",
    ])
    let lineage = try #require(try RaonConfig.parse(lines.joined(separator: "\n"), path: "raon.toml").national.profile().regions.lineage)
    #expect(lineage.provider(name: "충북특별자치도 청주시", code: "9710000").id == "충북 청주시")
    #expect(lineage.keyLineage(of: lineage.provider(name: "충청북도 음성군", code: "").id) == "충북 진천음성시")
    #expect(lineage.provinceName("충북", on: Self.day) == "충북특별자치도")
    #expect(lineage.provinceName("충북", on: Self.day.adding(days: -1)) == "충청북도")
    #expect(lineage.detection.enabled)
  }

  @Test func theLinesThatRefuseAFindingParseIntoRefusedPairs() throws {
    let lines = NationalConfig.undoLines(Self.findings)
    #expect(lines[1] == "not_lineage = [{ old = \"충청북도\", new = \"충북특별자치도\" }, { old = \"충청북도 음성군\", new = \"충북특별자치도 진천음성시\" }, { old = \"충청북도 진천군\", new = \"충북특별자치도 진천음성시\" }]")
    let lineage = try #require(try RaonConfig.parse(lines.joined(separator: "\n"), path: "raon.toml").national.profile().regions.lineage)
    #expect(lineage.detection.refuses("충청북도", "충북특별자치도"))
    #expect(lineage.detection.refuses("충청북도  진천군", "충북특별자치도 진천음성시"))
    #expect(!lineage.detection.refuses("충청남도", "충북특별자치도"))
    let off = try RaonConfig.parse("[national]\ndetect_lineage = false\n", path: "raon.toml").national.profile()
    #expect(off.regions.lineage?.detection.enabled == false)
  }

  /// A name read from the data is one line of valid TOML whatever it holds.
  @Test func aNameWithQuotesAndControlCharactersStaysOneLineOfTOML() throws {
    let odd = "경기도 \"새\"\\시\n\u{1B}[31m"
    let finding = LineageFinding(kind: .renamed, old: ["경기도 화성시"], new: odd, day: Self.day, matched: 3, expected: 3, providers: 1)
    let lines = NationalConfig.undoLines([finding])
    #expect(lines.count == 2 && !lines[1].contains("\n") && !lines[1].contains("\u{1B}"))
    let config = try RaonConfig.parse(lines.joined(separator: "\n"), path: "raon.toml")
    #expect(config.national.notLineage.first?.new == odd)
  }

  @Test func aMistakeNamesTheFileAndLine() {
    #expect(throws: WorkflowError.config(path: "raon.toml", line: 2, message: "[national] detect_lineage must be true or false")) {
      try RaonConfig.parse("[national]\ndetect_lineage = \"no\"\n", path: "raon.toml")
    }
    #expect(
      throws: WorkflowError.config(
        path: "raon.toml", line: 3,
        message: "[national] each of 'not_lineage' needs new = \"…\" (like { old = \"충청북도 음성군\", new = \"충북특별자치도 진천음성시\" })")
    ) {
      try RaonConfig.parse("[national]\n\nnot_lineage = [ { old = \"a\" } ]\n", path: "raon.toml")
    }
  }
}
