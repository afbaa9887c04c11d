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
    // Two 시·도 lists beside the country's; their packs are theirs (no [weekly] districts).
    try Self.provinceLists(f)

    let recorded = try await RaonProcess.runDetached(
      ["snapshot", "--catalog", "national", "--db", f.db, NationalLineageEndToEndTests.download.path,
       "--taken-at", "2025-03-31T09:00:00+09:00"],
      in: f.dir)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    let built = try NationalLineageEndToEndTests.built(f.dir)
    try f.drop(built.appendingPathComponent("merged.csv"), at: "2025-04-07T06:00:00+09:00", as: "전국공연행사정보표준데이터.csv")

    let run = try await f.weekly(at: "2025-04-07T07:30:00+09:00")
    #expect(run.status == 0, "\(run.stdout) \(run.stderr)")

    let received = try f.smtp.messages()
    let country = Set(WeeklyFixture.lists["city"] ?? [])
    let week = received.filter { !Set(WeeklyFixture.recipients($0)).isDisjoint(with: country) }
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

    // Each 시·도 its own message, once: its pack's files (bytes as published, by Python's
    // SHA-256), its name in the subject; the ledger says sent once.
    let folder = f.dir.appendingPathComponent("out/2025-W15/regions")
    for (province, address) in Self.provinces {
      let got = received.filter { WeeklyFixture.recipients($0) == [address] }
      #expect(got.count == 1, "\(province): \(got.count) messages")
      guard let message = got.first else { continue }
      #expect(message["subject"] as? String == "[전국 공연·행사 주간 현황] 2025. 4. 7.(월) ~ 4. 13.(일) — \(province)", "\(message["subject"] ?? "")")
      let files = (message["attachments"] as? [[String: Any]]) ?? []
      #expect(files.compactMap { $0["filename"] as? String }.sorted() == ["전국_공연행사_주간현황_2025-04-07_\(province).xlsx"], "\(files)")
      for file in files {
        let published = folder.appendingPathComponent(province).appendingPathComponent("report.xlsx")
        #expect(file["sha256"] as? String == (try WeeklyFixture.sha256(published)), "\(province)")
      }
    }
    let book = f.deliveries(try await f.runs(at: "2025-04-07T08:00:00+09:00").json)
    for (province, address) in Self.provinces {
      let rows = book.filter { $0["recipient"] as? String == address }
      #expect(rows.count == 1 && rows.first?["list"] as? String == province && rows.first?["status"] as? String == "sent"
        && rows.first?["sends"] as? Int == 1, "\(rows)")
    }
    // The Monday again: nothing more to anyone.
    let again = try await f.weekly(at: "2025-04-07T09:00:00+09:00")
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try f.smtp.messages().count == received.count)
  }

  /// A Seoul district named for a national store's packs is a config mistake: exit 78,
  /// naming the file and the line, before anything is pulled, recorded or sent.
  @Test func aSeoulDistrictOnANationalStoreIsAConfigMistake() async throws {
    let f = try await WeeklyFixture.make("national-seoul-names")
    defer { f.stop() }
    try f.useInbox()
    let recorded = try await RaonProcess.runDetached(
      ["snapshot", "--catalog", "national", "--db", f.db, NationalLineageEndToEndTests.download.path,
       "--taken-at", "2025-03-31T09:00:00+09:00"],
      in: f.dir)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    let lines = try String(contentsOf: f.dir.appendingPathComponent("raon.toml"), encoding: .utf8).components(separatedBy: "\n")
    let line = (lines.firstIndex { $0.hasPrefix("districts = [") } ?? -2) + 1
    for arguments in [["--dry-run"], []] {
      let run = try await f.weekly(arguments, at: "2025-04-07T07:30:00+09:00")
      #expect(run.status == 78, "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains("raon.toml:\(line): '강남구' in districts is not a 시·도 of the national catalog"), "\(run.stderr)")
    }
    #expect(try f.smtp.messages().isEmpty)
    #expect(!FileManager.default.fileExists(atPath: f.dir.appendingPathComponent("out/2025-W15").path))
  }

  static let provinces = [("경상북도", "gyeongbuk@example.go.kr"), ("전라남도", "jeonnam@example.go.kr")]

  /// `raon.toml` with [mail.districts] naming two 시·도 and no [weekly] districts.
  static func provinceLists(_ f: WeeklyFixture) throws {
    let config = f.dir.appendingPathComponent("raon.toml")
    var text = try String(contentsOf: config, encoding: .utf8)
      .replacingOccurrences(of: #"districts = ["강남구", "종로구", "중구"]"#, with: "")
    let head = try #require(text.range(of: "[mail.districts]\n"))
    text = String(text[..<head.upperBound]) + provinces.map { "\"\($0.0)\" = [\"\($0.1)\"]\n" }.joined()
    try Data(text.utf8).write(to: config)
  }
}
