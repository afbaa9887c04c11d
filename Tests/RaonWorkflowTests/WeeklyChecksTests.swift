import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument
import RaonMail
import RaonStore
import TestSupport
import Testing

@testable import RaonWorkflow

/// The checks before a week is sent, as pure values: the settings' documented forms, the
/// gates on hand-made figures (each figure worked out in the test's comments), the words of
/// the operators' alert and of the offices' notice, and the health `raon runs` reports.
@Suite struct WeeklyChecksTests {
  // MARK: - Settings

  /// Every form docs/WEEKLY.md documents for the new keys is read; "0" is "once".
  @Test func theDocumentedFormsOfEverySettingAreRead() throws {
    let config = try RaonConfig.parse(
      """
      [weekly]
      retry_for = "0"
      max_age = "8d"
      stale_notice = true
      approve = true
      [weekly.gates]
      size_change = "20%"
      emptied = 5
      changed_share = "12.5%"
      columns = true
      """, path: "raon.toml")
    let weekly = try #require(config.weekly)
    #expect(weekly.retryFor == 0)
    #expect(weekly.maxAge == 8 * 86_400)
    #expect(weekly.staleNotice && weekly.approve)
    #expect(weekly.gates.sizeChange == 0.20 && weekly.gates.emptiedFrom == 5)
    #expect(weekly.gates.changedShare == 0.125 && weekly.gates.columns)
    for (form, seconds) in [("120", 120), ("\"90s\"", 90), ("\"30m\"", 1_800), ("\"2h\"", 7_200), ("\"1h30m\"", 5_400), ("0", 0)] {
      let read = try RaonConfig.parse("[weekly]\nretry_for = \(form)\n", path: "raon.toml")
      #expect(read.weekly?.retryFor == seconds, "\(form)")
    }
    for (form, seconds) in [("\"36h\"", 129_600), ("\"1d12h\"", 129_600), ("86400", 86_400)] {
      let read = try RaonConfig.parse("[weekly]\nmax_age = \(form)\n", path: "raon.toml")
      #expect(read.weekly?.maxAge == seconds, "\(form)")
    }
    // The defaults read well unset, and "off" turns a gate off.
    let plain = try #require(try RaonConfig.parse("[weekly]\n", path: "raon.toml").weekly)
    #expect(plain.maxAge == 8 * 86_400 && !plain.approve && !plain.staleNotice && plain.lock == nil)
    #expect(plain.gates == WeeklyGateSettings())
    let off = try #require(
      try RaonConfig.parse(
        "[weekly]\n[weekly.gates]\nsize_change = \"off\"\nemptied = \"off\"\nchanged_share = false\ncolumns = false\n",
        path: "raon.toml"
      ).weekly)
    #expect(off.gates.sizeChange == nil && off.gates.emptiedFrom == nil && off.gates.changedShare == nil && !off.gates.columns)
  }

  @Test func aWrongCheckSettingNamesItsLine() {
    let cases: [(text: String, line: Int, mentions: String)] = [
      ("[weekly]\nmax_age = \"soon\"\n", 2, "max_age"),
      ("[weekly]\nmax_age = \"10m\"\n", 2, "max_age"),
      ("[weekly]\n\napprove = \"yes\"\n", 3, "true or false"),
      ("[weekly]\n[weekly.gates]\nsize_change = 20\n", 3, "percentage"),
      ("[weekly]\n[weekly.gates]\n\nchanged_share = \"0%\"\n", 4, "percentage"),
      ("[weekly]\n[weekly.gates]\nemptied = -1\n", 3, "emptied"),
      ("[weekly]\n[weekly.gates]\ncolour = true\n", 3, "unknown key 'colour'"),
    ]
    for c in cases {
      do {
        _ = try RaonConfig.parse(c.text, path: "raon.toml")
        Issue.record("\(c.text) was accepted")
      } catch {
        let text = String(describing: error)
        #expect(text.contains("raon.toml:\(c.line):"), "\(c.text): \(text)")
        #expect(text.contains(c.mentions), "\(c.text): \(text)")
      }
    }
  }

  // MARK: - Gates

  static func side(_ programs: Int, _ regions: [String: Int], columns: Set<String> = ["A", "B"]) -> GateFigures.Side {
    GateFigures.Side(
      id: 1, takenAt: Date(timeIntervalSince1970: 0), programs: programs, distinctPrograms: programs, byRegion: regions,
      columns: columns)
  }

  @Test func eachGateTripsOnlyPastItsLimit() {
    let settings = WeeklyGateSettings()
    // 1,000 → 799 is −20.1 %: past ±20 %; 1,000 → 800 is −20 %: not.
    func size(_ new: Int) -> WeeklyGate? {
      let figures = GateFigures(old: Self.side(1_000, [:]), new: Self.side(new, [:]), changed: 0, gone: 0)
      return WeeklyGates.check(figures, settings: settings, language: .ko, region: CatalogWords.seoul.region).first { $0.gate == .sizeChange }
    }
    #expect(size(799)?.tripped == true && size(799)?.figure == "1,000 → 799 (−20.1%)")
    #expect(size(800)?.tripped == false)
    #expect(size(1_201)?.tripped == true && size(1_201)?.figure == "1,000 → 1,201 (+20.1%)")

    // 종로구 had 5 (the least that counts), 중구 4, 미상 9: only 종로구 trips.
    let emptied = GateFigures(
      old: Self.side(18, ["종로구": 5, "중구": 4, "미상": 9]), new: Self.side(18, ["강남구": 18]), changed: 0, gone: 0)
    let gate = WeeklyGates.check(emptied, settings: settings, language: .ko, region: CatalogWords.seoul.region).first { $0.gate == .emptied }
    #expect(gate?.tripped == true && gate?.figure == "종로구 5 → 0" && gate?.value == 1)
    let province = WeeklyGates.check(emptied, settings: settings, language: .ko, region: CatalogWords.national.region).first { $0.gate == .emptied }
    #expect(province?.label.contains("시·도") == true)
    // The national data's bodies no 시·도 holds (기타 기관) never "empty"; a 시·도 does.
    let bodies = GateFigures(
      old: Self.side(12, ["기타 기관": 6, "경기도": 6]), new: Self.side(12, ["서울특별시": 12]), changed: 0, gone: 0)
    let national = WeeklyGates.check(
      bodies, settings: settings, language: .ko, region: CatalogWords.national.region,
      unplaced: CatalogProfile.national.unplacedRegions
    ).first { $0.gate == .emptied }
    #expect(national?.figure == "경기도 6 → 0" && national?.value == 1, "\(String(describing: national))")
    // A catalog Raon does not ship: its own unknown region (권역 미상) is left out too.
    let zones = GateFigures(old: Self.side(12, ["권역 미상": 6, "동부": 6]), new: Self.side(12, ["서부": 12]), changed: 0, gone: 0)
    let third = WeeklyGates.check(
      zones, settings: settings, language: .ko, region: ThirdCatalog.profile.words.region,
      unplaced: ThirdCatalog.profile.unplacedRegions
    ).first { $0.gate == .emptied }
    #expect(third?.figure == "동부 6 → 0" && third?.value == 1, "\(String(describing: third))")
    #expect(
      WeekLists.byDistrict(
        [Program(id: "1", district: "권역 미상"), Program(id: "2", district: "중부"), Program(id: "3", district: "동부")],
        unplaced: ThirdCatalog.profile.regions.unknown
      ).map(\.district) == ["동부", "중부", "권역 미상"])

    // 300 changed + 201 gone of 1,000: 50.1 %, past 50 %; 500 of 1,000: not.
    func share(_ changed: Int, _ gone: Int) -> WeeklyGate? {
      let figures = GateFigures(old: Self.side(1_000, [:]), new: Self.side(1_000, [:]), changed: changed, gone: gone)
      return WeeklyGates.check(figures, settings: settings, language: .en, region: CatalogWords.seoul.region).first { $0.gate == .changedShare }
    }
    #expect(share(300, 201)?.tripped == true)
    #expect(share(300, 201)?.figure == "501 of 1,000 (50.1%): 300 changed, 201 gone")
    #expect(share(300, 200)?.tripped == false)

    let columns = GateFigures(
      old: Self.side(1, [:], columns: ["A", "LAT"]), new: Self.side(1, [:], columns: ["A", "INQUIRY", "PRO_TIME"]),
      changed: 0, gone: 0)
    let found = WeeklyGates.check(columns, settings: settings, language: .ko, region: CatalogWords.seoul.region).first { $0.gate == .columns }
    #expect(found?.tripped == true && found?.figure == "추가 INQUIRY, PRO_TIME; 삭제 LAT")
  }

  @Test func changedAndGoneComeFromTheProgramsThatDifferOnEachSide() {
    // a: changed (on both sides); b: gone; c: new (only the new side).
    let counts = GateFigures.changes(oldDiffering: ["a", "b"], newDiffering: ["a", "c"])
    #expect(counts.changed == 1 && counts.gone == 1)
  }

  @Test func aGateTurnedOffIsNotChecked() {
    var settings = WeeklyGateSettings()
    settings.sizeChange = nil
    settings.columns = false
    let figures = GateFigures(old: Self.side(10, [:]), new: Self.side(1, [:]), changed: 0, gone: 9)
    let gates = WeeklyGates.check(figures, settings: settings, language: .ko, region: CatalogWords.seoul.region)
    #expect(gates.map(\.gate) == [.emptied, .changedShare])
  }

  // MARK: - Words

  static let snapshot = SnapshotInfo(
    id: 41, takenAt: Date(timeIntervalSince1970: 1_755_467_520), source: "서울시 문화행사 정보.csv", programCount: 4_998)  // 2025-08-18 06:52 KST

  @Test func theStaleAlertSaysWhatHappenedAndWhatToDo() throws {
    let freshness = WeeklyFreshness(snapshot: Self.snapshot, reportedWeek: "2025-08-18", age: 7 * 86_400, maxAge: 8 * 86_400)
    #expect(freshness.isStale)
    let week = ISOWeek(containing: try #require(CalendarDay(iso: "2025-08-25")))
    let ko = OperatorAlert.stale(freshness, week: week, runID: 7, source: "Open API", notices: 0, language: .ko)
    #expect(ko.subject == "[raon weekly] 2025. 8. 25.(월) 주: 2025. 8. 18. 이후 새 자료 없음 — 발송하지 않음")
    #expect(ko.text.contains("- 최근 자료: 2025. 8. 18.(월) 06:52 수집 (스냅샷 41)\n"))
    #expect(!ko.text.contains("max_age"), "not older than max_age")
    let en = OperatorAlert.stale(freshness, week: week, runID: 7, source: "the Open API", notices: 2, language: .en)
    #expect(en.subject == "[raon weekly] week of Mon 25 Aug 2025: no new download since 18 Aug 2025 — nothing sent")
    #expect(en.text.contains("The offices got 2 notices that the data did not change"))
    #expect(en.html.contains("<li>Latest data: collected Mon 18 Aug 2025 06:52 KST (snapshot 41)</li>"), "\(en.html)")
    #expect(freshness.reason() == "no new data since 18 Aug 2025 (snapshot 41, already reported for the week of 2025-08-18) — nothing sent to the offices")
    let old = WeeklyFreshness(snapshot: Self.snapshot, reportedWeek: nil, age: 9.5 * 86_400, maxAge: 8 * 86_400)
    #expect(old.isStale)
    #expect(old.reason().contains("9 days old, over max_age 8 days"))
    #expect(!WeeklyFreshness(snapshot: Self.snapshot, reportedWeek: nil, age: 3_600, maxAge: 8 * 86_400).isStale)
  }

  /// The lineage a week's comparison found reaches the operator with the lines to copy
  /// (hand-made finding: 음성군 and 진천군 merged into 진천음성시 on 2025. 4. 7.).
  @Test func theLineageAlertNamesTheFindingAndTheLinesToCopy() throws {
    let day = try #require(CalendarDay(iso: "2025-04-07"))
    let finding = LineageFinding(
      kind: .merged, old: ["충청북도 음성군", "충청북도 진천군"], new: "충청북도 진천음성시", day: day, matched: 40, expected: 42,
      providers: 2)
    let note = NationalConfig.note(
      [finding], between: LineageBetween(old: try #require(CalendarDay(iso: "2025-03-31")), new: day))
    let week = ISOWeek(containing: day)
    let ko = OperatorAlert.lineage(note, week: week, runID: 12, language: .ko)
    #expect(ko.subject == "[raon weekly] 2025. 4. 7.(월) 주: 지역 이름 변경·통합 1건을 자료에서 찾음 — raon.toml 확인 필요")
    #expect(ko.text.contains("- 충청북도 음성군, 충청북도 진천군 → 충청북도 진천음성시: 통합(2025. 4. 7.(월)부터, 행사 42건 중 40건이 새 이름으로 이어짐)"))
    #expect(ko.text.contains(
      "    [national]\n    merges = [{ from = \"충청북도 음성군\", into = \"충청북도 진천음성시\", on = 2025-04-07 }, { from = \"충청북도 진천군\", into = \"충청북도 진천음성시\", on = 2025-04-07 }]"),
      "\(ko.text)")
    #expect(ko.text.contains("not_lineage = [{ old = \"충청북도 음성군\", new = \"충청북도 진천음성시\" }"))
    #expect(ko.html.contains("<pre style=\"white-space:pre-wrap\">[national]\nmerges = [{ from = &quot;충청북도 음성군&quot;"), "\(ko.html)")
    let en = OperatorAlert.lineage(note, week: week, runID: 12, language: .en)
    #expect(en.subject == "[raon weekly] week of Mon 7 Apr 2025: 1 region rename or merger found in the data — check raon.toml")
    #expect(!en.text.contains("통합"))
  }

  @Test func theNoticeIsWordedAsAnOfficeWouldWriteIt() throws {
    let week = ISOWeek(containing: try #require(CalendarDay(iso: "2025-08-25")))
    let earlier = ISOWeek(containing: try #require(CalendarDay(iso: "2025-08-18")))
    let facts = WeeklyMail.NoticeFacts(week: week, collectedAt: Self.snapshot.takenAt, reportedWeek: earlier)
    let from = try #require(MailAddress("culture@example.go.kr"))
    let message = WeeklyMail.notice(facts, list: "종로구", to: [from], from: Mailbox(from), date: Self.snapshot.takenAt, language: .ko)
    #expect(message.subject == "[서울시 문화행사 주간 현황] 2025. 8. 25.(월) ~ 8. 31.(일) 자료 미갱신 안내 — 종로구")
    #expect(message.messageID == "raon.20250825.d23.notice@example.go.kr")
    #expect(message.text.hasPrefix("이번 주(2025. 8. 25.(월) ~ 8. 31.(일))에는 서울시 문화행사 자료가 새로 갱신되지 않아"))
    #expect(message.text.contains("이미 보내 드렸습니다."))
    // Signed with the short automatic-mail note (no office configured, no display name).
    #expect(message.text.contains("매주 자동으로 발송되는 메일입니다. 문의: culture@example.go.kr"))
    #expect(!message.text.contains("Raon"))
  }

  // MARK: - raon runs

  static func run(_ outcome: WeeklyRunRecord.Outcome, reason: String? = nil) -> WeeklyRunRecord {
    WeeklyRunRecord(
      id: 9, kind: .scheduled, week: "2025-08-25", startedAt: Date(timeIntervalSince1970: 1_756_072_800), host: "h",
      pid: 1, outcome: outcome, reason: reason)
  }

  @Test func runsSaysStaleHeldAndPendingInThatOrder() {
    let now = Date(timeIntervalSince1970: 1_756_076_400)
    let stale = RunsListing.health(lastScheduled: Self.run(.stale, reason: "no new data since 18 Aug 2025"), pending: 2, held: 1, now: now, host: "h")
    #expect(stale.status == .stale && stale.problem?.contains("sent nothing: no new data since 18 Aug 2025") == true)
    let held = RunsListing.health(lastScheduled: Self.run(.held, reason: "gates tripped: size_change"), pending: 2, held: 5, now: now, host: "h")
    #expect(held.status == .held && held.problem == "5 deliveries are held by run 9 (gates tripped: size_change) — look at the report, then 'raon weekly --release' sends them")
    let released = RunsListing.health(lastScheduled: Self.run(.held), pending: 0, held: 0, now: now, host: "h")
    #expect(released.status == nil, "released since: well")
    let pending = RunsListing.health(lastScheduled: Self.run(.succeeded), pending: 2, held: 0, now: now, host: "h")
    #expect(pending.status == .pending)
  }
}
