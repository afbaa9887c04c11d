import Foundation
import RaonCore
import Testing

@testable import RaonAnalytics

/// Renames and mergers of regions found in the data (issue 45): a 시·도 renamed with its
/// providers' names and codes, two 시·군 merged, a provider absorbed; and what must not be
/// taken for one — a provider that stops beside an unrelated one that starts, a shared or
/// touring show, too few events, a refused pair.
@Suite("Lineage found in the data")
struct LineageDetectionTests {
  static let header = ["행사명", "장소", "행사시작일자", "행사종료일자", "행사시작시각", "관람요금", "소재지도로명주소", "제공기관코드", "제공기관명"]
  static let day = CalendarDay(iso: "2025-04-07")!
  static let between = LineageBetween(old: CalendarDay(iso: "2025-03-31")!, new: day)

  /// `n` events of a provider (`title 1` … `title n`), ending after ``day`` unless `ended`.
  static func events(_ provider: String, _ title: String, _ n: Int, code: String = "1", ended: Bool = false) -> [[String]] {
    (1...n).map { i in
      let end = ended ? "2025-01-31" : "2025-12-31"
      return ["\(title) \(i)", "\(title) 홀", "2025-01-\(String(format: "%02d", i))", end, "19:00", "10000",
        provider + " 중앙로 \(i)", code, provider]
    }
  }

  static func records(_ rows: [[String]]) -> [RawRecord] {
    let names = FieldNames(header)
    return rows.map { RawRecord(names: names, values: $0.map { Optional($0) }) }
  }

  static func snapshot(_ rows: [[String]], profile: CatalogProfile = .national) -> EventComparison.Snapshot {
    let records = records(rows)
    let programs = NationalNormalizer.normalize(records, profile: profile)
    return EventComparison.events(programs: programs, rows: zip(programs, records).map { ($0.id, $1) }, profile: profile)
  }

  static func renamed(_ rows: [[String]], _ from: String, _ to: String, code: String) -> [[String]] {
    rows.map { row in
      var row = row
      row[8] = to + row[8].dropFirst(from.count)
      row[6] = to + row[6].dropFirst(from.count)
      row[7] = code
      return row
    }
  }

  static let others = events("부산광역시 해운대구", "바다", 6)
  static let cheongju = events("충청북도 청주시", "청주", 8)
  static let eumseong = events("충청북도 음성군", "음성", 5)
  static let jincheon = events("충청북도 진천군", "진천", 4)

  /// 충청북도 renamed 충북특별자치도 (new names, new codes, new addresses), 음성군 and 진천군
  /// merged into 진천음성시, one fee edited: found as a 시·도 renamed and a merger, and the
  /// comparison under what was found is the one the same lines of `raon.toml` give.
  @Test func aProvinceRenamedAndTwoBodiesMergedAreFoundAndCountAsTheConfigCounts() throws {
    let old = Self.others + Self.cheongju + Self.eumseong + Self.jincheon
    var newCheongju = Self.renamed(Self.cheongju, "충청북도", "충북특별자치도", code: "9")
    newCheongju[0][5] = "12000"
    let merged = Self.renamed(Self.eumseong, "충청북도 음성군", "충북특별자치도 진천음성시", code: "8")
      + Self.renamed(Self.jincheon, "충청북도 진천군", "충북특별자치도 진천음성시", code: "8")
    let new = Self.others + newCheongju + merged

    let (findings, lineage) = LineageDetection.detect(
      old: Self.records(old), new: Self.records(new), lineage: .shipped, on: Self.day)
    #expect(findings.map(\.kind) == [.provinceRenamed, .merged], "\(findings)")
    #expect(findings.first?.old == ["충청북도"] && findings.first?.new == "충북특별자치도")
    #expect(findings.first?.providers == 3 && findings.first?.matched == 17 && findings.first?.expected == 17)
    #expect(findings.last?.old == ["충청북도 음성군", "충청북도 진천군"] && findings.last?.new == "충북특별자치도 진천음성시")
    #expect(findings.last?.matched == 9 && findings.last?.expected == 9)

    // The same lines written by hand.
    let hand = try RegionLineage.shipped.renaming("충청북도", to: "충북특별자치도", since: Self.day)
      .merging("충청북도 음성군", into: "충북특별자치도 진천음성시", on: Self.day)
      .merging("충청북도 진천군", into: "충북특별자치도 진천음성시", on: Self.day)
    for used in [lineage, hand] {
      let profile = CatalogProfile.national.with(lineage: used)
      let diff = EventComparison.diff(
        old: Self.snapshot(old, profile: profile), new: Self.snapshot(new, profile: profile), profile: profile)
      #expect(diff.added.isEmpty && diff.removed.isEmpty && diff.changed.count == 1)
      #expect(diff.changed.first?.fields.map(\.field) == ["feeText"])
      #expect(used.providerName(used.provider(name: "충북특별자치도 청주시", code: "").id, on: Self.day) == "충북특별자치도 청주시")
      #expect(used.provinceName("충북", on: Self.day) == "충북특별자치도")
    }
    // Under the shipped lineage alone every 충북 event is removed and added again.
    let before = EventComparison.diff(old: Self.snapshot(old), new: Self.snapshot(new), profile: .national)
    #expect(before.removed.count == 17 && before.added.count == 17)
    // The check says so, and once applied finds nothing more.
    let check = try #require(
      EventComparison.checkLineage(old: Self.snapshot(old), new: Self.snapshot(new), profile: .national, between: Self.between))
    #expect(check.findings == findings)
    let applied = CatalogProfile.national.with(lineage: check.lineage)
    #expect(
      EventComparison.checkLineage(
        old: Self.snapshot(old, profile: applied), new: Self.snapshot(new, profile: applied), profile: applied,
        between: Self.between) == nil)
  }

  /// A provider that stops while an unrelated one starts is no lineage, even when the new
  /// one lists two of its events (a show both list) and three of its titles on their days
  /// at another place (a touring show).
  @Test func aProviderThatStopsAndAnUnrelatedOneThatStartsAreNotMerged() {
    let stopped = Self.events("충청남도 청양군", "청양", 10)
    let old = Self.others + Self.cheongju + stopped
    var starting = Self.events("충청남도 보령문화재단", "보령", 6) + Array(stopped[0..<2])
    for row in stopped[2..<5] {
      var touring = row
      touring[1] = "보령문화예술회관"
      starting.append(touring)
    }
    let new = Self.others + Self.cheongju + starting.map { row in
      var row = row
      row[8] = "충청남도 보령문화재단"
      return row
    }
    let (findings, _) = LineageDetection.detect(old: Self.records(old), new: Self.records(new), lineage: .shipped, on: Self.day)
    #expect(findings.isEmpty, "\(findings)")
    #expect(EventComparison.checkLineage(old: Self.snapshot(old), new: Self.snapshot(new), profile: .national, between: Self.between) == nil)
  }

  /// Three events found, but fewer than half of the ten still on: not a rename. Three of
  /// three still on (the others ended): a rename.
  @Test func aRenameNeedsHalfTheEventsStillOn() {
    let tenOn = Self.events("충청남도 청양군", "청양", 10)
    let renamedThree = Array(tenOn[0..<3]).map { row -> [String] in
      var row = row
      row[8] = "충청남도 청양문화재단"
      return row
    }
    let none = LineageDetection.detect(
      old: Self.records(Self.others + tenOn), new: Self.records(Self.others + renamedThree), lineage: .shipped, on: Self.day)
    #expect(none.findings.isEmpty)
    let mostEnded = Array(tenOn[0..<3]) + Self.events("충청남도 청양군", "지난", 7, ended: true)
    let found = LineageDetection.detect(
      old: Self.records(Self.others + mostEnded), new: Self.records(Self.others + renamedThree), lineage: .shipped,
      on: Self.day)
    #expect(found.findings.map(\.kind) == [.renamed] && found.findings.first?.new == "충청남도 청양문화재단")
    #expect(found.findings.first?.matched == 3 && found.findings.first?.expected == 3)
    // Two events are not enough, whatever their share.
    let two = LineageDetection.detect(
      old: Self.records(Self.others + Array(tenOn[0..<2])), new: Self.records(Self.others + Array(renamedThree[0..<2])),
      lineage: .shipped, on: Self.day)
    #expect(two.findings.isEmpty)
  }

  /// A body whose events go on under a provider that was there before: merged into it.
  @Test func aBodyAbsorbedByAnotherIsAMerger() {
    let old = Self.others + Self.cheongju + Self.eumseong
    let absorbed = Self.eumseong.map { row -> [String] in
      var row = row
      row[8] = "충청북도 청주시"
      return row
    }
    let (findings, lineage) = LineageDetection.detect(
      old: Self.records(old), new: Self.records(Self.others + Self.cheongju + absorbed), lineage: .shipped, on: Self.day)
    #expect(findings.map(\.kind) == [.merged] && findings.first?.old == ["충청북도 음성군"] && findings.first?.new == "충청북도 청주시")
    #expect(lineage.keyLineage(of: "충북 음성군") == "충북 청주시")
  }

  /// `not_lineage` and `detect_lineage = false`: a refused 시·도 rename is not found again
  /// provider by provider; with detection off nothing is found.
  @Test func refusedPairsAndDetectionOffFindNothing() {
    let old = Self.others + Self.cheongju + Self.eumseong
    let new = Self.others + Self.renamed(Self.cheongju + Self.eumseong, "충청북도", "충북특별자치도", code: "9")
    var refusing = RegionLineage.shipped
    refusing.detection = RegionLineage.Detection(refused: [(old: "충청북도", new: "충북 특별자치도")])
    #expect(LineageDetection.detect(old: Self.records(old), new: Self.records(new), lineage: refusing, on: Self.day).findings.isEmpty)
    var off = RegionLineage.shipped
    off.detection.enabled = false
    #expect(LineageDetection.detect(old: Self.records(old), new: Self.records(new), lineage: off, on: Self.day).findings.isEmpty)
    let found = LineageDetection.detect(old: Self.records(old), new: Self.records(new), lineage: .shipped, on: Self.day)
    #expect(found.findings.map(\.kind) == [.provinceRenamed])
  }

  /// Keys recorded under another lineage (a rename written into `raon.toml` after the
  /// recording) call for reading both snapshots again, with nothing found.
  @Test func keysRecordedUnderAnotherLineageAreReadAgain() throws {
    let old = Self.others + Self.eumseong + Self.jincheon
    let later = try RegionLineage.shipped.merging("충청북도 음성군", into: "충청북도 진천군", on: Self.day)
    let profile = CatalogProfile.national.with(lineage: later)
    #expect(EventComparison.checkLineage(old: Self.snapshot(old), new: Self.snapshot(old), profile: .national, between: Self.between) == nil)
    let check = try #require(
      EventComparison.checkLineage(old: Self.snapshot(old), new: Self.snapshot(old, profile: profile), profile: profile, between: Self.between))
    #expect(check.findings.isEmpty)
  }
}
