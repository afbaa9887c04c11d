import Foundation
import TestSupport
import Testing

/// `raon weekly` on a store of the national standard data: the real binary on the clock
/// `RAON_NOW` sets, a folder of downloads, a real SMTP server on 127.0.0.1 (STARTTLS, AUTH).
/// The week of the built merger (Scripts/national_merger.py) goes to the country's list under
/// the national catalog's own words, and the operators are told of the merger the comparison
/// found, with the `raon.toml` lines that keep it — the lines `raon report` prints for the
/// same two downloads (issue 45: lineage in the operator's alert; issue 46: the national week
/// delivered).
@Suite(.serialized) struct WeeklyNationalEndToEndTests {
  @Test func theNationalWeekGoesToTheCountrysListAndTheOperatorHearsOfTheMerger() async throws {
    let f = try await WeeklyFixture.make("national")
    defer { f.stop() }
    try f.useInbox(weekly: "[weekly.gates]\nsize_change = \"off\"")
    // The country's list and the operators only: the districts' lists name Seoul's districts.
    let config = f.dir.appendingPathComponent("raon.toml")
    let text = try String(contentsOf: config, encoding: .utf8)
    try Data(text.replacingOccurrences(of: #"districts = ["강남구", "종로구", "중구"]"#, with: "").utf8).write(to: config)

    let recorded = try await RaonProcess.runDetached(
      ["snapshot", "--catalog", "national", "--db", f.db, NationalLineageEndToEndTests.download.path,
       "--taken-at", "2025-03-31T09:00:00+09:00"],
      in: f.dir)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    let built = try NationalLineageEndToEndTests.built(f.dir)
    try f.drop(built.appendingPathComponent("merged.csv"), at: "2025-04-07T06:00:00+09:00", as: "전국공연행사정보표준데이터.csv")

    let run = try await f.weekly(at: "2025-04-07T07:30:00+09:00")
    #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
    #expect(run.stderr.contains("[mail.districts] names Seoul's districts"), "\(run.stderr)")

    let received = try f.smtp.messages()
    let week = received.filter { WeeklyFixture.recipients($0) != ["ops@example.go.kr"] }
    // One message, handed over once per address of the country's list.
    #expect(Set(week.flatMap(WeeklyFixture.recipients)) == Set(WeeklyFixture.lists["city"] ?? []))
    #expect(Set(week.compactMap { $0["messageId"] as? String }).count == 1, "\(week.map { $0["messageId"] ?? "" })")
    let city = try #require(week.first)
    #expect(city["subject"] as? String == "[전국 공연·행사 주간 현황] 2025. 4. 7.(월) ~ 4. 13.(일)", "\(city["subject"] ?? "")")
    let names = ((city["attachments"] as? [[String: Any]]) ?? []).compactMap { $0["filename"] as? String }
    #expect(names.contains("전국_공연행사_주간현황_2025-04-07.xlsx"), "\(names)")
    #expect(!(city["text"] as? String ?? "").contains("서울시 문화행사"), "\(city["text"] ?? "")")

    // The operators: the merger found, and the lines that keep it — those raon report prints.
    let alerts = received.filter { WeeklyFixture.recipients($0) == ["ops@example.go.kr"] }
    let alert = try #require(alerts.first { ($0["subject"] as? String)?.contains("지역 이름 변경·통합") == true })
    #expect(alert["subject"] as? String == "[raon weekly] 2025. 4. 7.(월) 주: 지역 이름 변경·통합 2건을 자료에서 찾음 — raon.toml 확인 필요")
    let body = alert["text"] as? String ?? ""
    let report = try await RaonProcess.runDetached(
      ["report", "--db", f.db, "--format", "md", "--out", "report-by-hand"], in: f.dir)
    #expect(report.status == 0, "\(report.stderr)")
    let keep = NationalLineageEndToEndTests.keepLines(report.stderr)
    #expect(keep.contains("renames = [{ old = \"충청북도\", new = \"충북특별자치도\""), "\(report.stderr)")
    for line in keep.split(separator: "\n") {
      #expect(body.contains("    " + line), "\(line) — \(body)")
    }
    #expect(body.contains("충청북도 → 충북특별자치도: 시·도 이름 변경(2025. 4. 7.(월)부터"), "\(body)")
    #expect((alert["html"] as? String)?.contains("<pre style=\"white-space:pre-wrap\">[national]") == true)
    f.keep(alert, index: received.firstIndex { ($0["subject"] as? String) == (alert["subject"] as? String) }.map { $0 + 1 } ?? 0, as: "lineage-alert")
  }
}
