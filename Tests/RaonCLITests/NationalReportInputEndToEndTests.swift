import Foundation
import RaonCore
import RaonIngest
import TestSupport
import Testing

/// `raon report --catalog national --input FILE` and `--api` as a user runs them (issue 36):
/// the file or the portal's Open API is recorded as `raon snapshot --catalog national`
/// records it, then reported; the figures equal an independent Python count by the
/// documented key (Scripts/national_week.py, national_events.py); a bad file or a store of
/// Seoul's catalog is refused in one line and the store is left as it was.
@Suite(.serialized) struct NationalReportInputEndToEndTests {
  static let scripts = NationalReportEndToEndTests.scripts
  static let key = "Nat+Report/E2E-SECRET=="

  static func report(_ dir: URL, _ out: String) throws -> [String: Any] {
    let data = try Data(contentsOf: dir.appendingPathComponent("\(out)/report.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func snapshotCount(_ dir: URL, _ env: [String: String]) throws -> Int {
    let listed = try RaonProcess.run(["snapshots", "--json"], in: dir, environment: env)
    return listed.stdout.components(separatedBy: "\"id\"").count - 1
  }

  /// The week's headline figures of `report` against national_week.py's count of `file`.
  static func expectWeek(_ report: [String: Any], counted file: URL, monday: String, day: String) throws {
    let counted = try Python.run([scripts.appendingPathComponent("national_week.py").path, file.path, monday, day])
    #expect(counted.status == 0, "\(counted.stderr)")
    let expected = try NationalReportEndToEndTests.json(counted.stdout)
    #expect(report["catalog"] as? String == "national")
    let totals = try #require(report["totals"] as? [String: Any])
    #expect(totals["programs"] as? Int == expected["events"] as? Int)
    #expect(totals["free"] as? Int == expected["free"] as? Int)
    #expect(totals["paid"] as? Int == expected["paid"] as? Int)
    let week = try #require(report["thisWeek"] as? [String: Any])
    for key in ["running", "current", "starting", "ending"] {
      #expect(week[key] as? Int == expected[key] as? Int, "\(key)")
    }
    #expect(NationalReportEndToEndTests.counts(week["runningByRegion"]) == expected["runningByRegion"] as? [String: Int])
    #expect(NationalReportEndToEndTests.counts(report["byRegion"]) == expected["eventsByRegion"] as? [String: Int])
  }

  @Test func aFileIsRecordedThenReportedAndALaterOneComparedByTheKey() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-input")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "national.sqlite"]
    // A fresh store: --catalog national makes it the national catalog's.
    let first = try RaonProcess.run(
      ["report", "--catalog", "national", "--input", Fixtures.nationalCSV.path, "--taken-at", "2025-03-31T09:00:00+09:00",
       "--format", "json,csv,md", "--out", "first"],
      in: dir, environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    try Self.expectWeek(try Self.report(dir, "first"), counted: Fixtures.nationalCSV, monday: "2025-03-31", day: "2025-03-31")
    #expect(try Self.snapshotCount(dir, env) == 1)

    // A later download, without --catalog (the store's), compared with the first by the key.
    let later = try NationalLaterDownload.write(into: dir)
    let second = try RaonProcess.run(
      ["report", "--input", later.path, "--taken-at", "2025-10-01T09:00:00+09:00", "--format", "json", "--out", "second"],
      in: dir, environment: env)
    #expect(second.status == 0, "\(second.stderr)")
    let report = try Self.report(dir, "second")
    try Self.expectWeek(report, counted: later, monday: "2025-09-29", day: "2025-10-01")
    let diff = try Python.run([Self.scripts.appendingPathComponent("national_events.py").path, "diff", Fixtures.nationalCSV.path, later.path])
    let expected = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: [String]])
    let changes = try #require(report["changes"] as? [String: Any])
    #expect(changes["added"] as? Int == expected["added"]?.count)
    #expect(changes["removed"] as? Int == expected["removed"]?.count)
    #expect(changes["changed"] as? Int == expected["changed"]?.count)
    #expect((report["compareTo"] as? [String: Any])?["id"] as? Int == 1, "\(report["compareTo"] ?? "none")")
    #expect(try Self.snapshotCount(dir, env) == 2)
  }

  /// The report of a file held in memory while it is recorded (its events made, and
  /// compared with the stored snapshot, before the recording ends) is the report of the
  /// same two snapshots read back from the store: every file but the workbook byte for
  /// byte, the workbook's sheets too.
  @Test func aFileReportedWhileRecordedIsTheReportOfTheStoredSnapshots() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-held")
    defer { try? FileManager.default.removeItem(at: dir) }
    let later = try NationalLaterDownload.write(into: dir)
    let formats = "md,csv,json,xlsx"
    // Held: the first download stored, the later one recorded and reported in one go.
    let held = ["RAON_DB": "held.sqlite"]
    var run = try RaonProcess.run(
      ["snapshot", "--catalog", "national", Fixtures.nationalCSV.path, "--taken-at", "2025-03-31T09:00:00+09:00"],
      in: dir, environment: held)
    #expect(run.status == 0, "\(run.stderr)")
    run = try RaonProcess.run(
      ["report", "--input", later.path, "--taken-at", "2025-10-01T09:00:00+09:00", "--compare-to", "previous",
       "--format", formats, "--out", "held"], in: dir, environment: held)
    #expect(run.status == 0, "\(run.stderr)")
    // Stored: both downloads recorded first, then the report read from the store.
    let stored = ["RAON_DB": "stored.sqlite"]
    for (file, time) in [(Fixtures.nationalCSV.path, "2025-03-31T09:00:00+09:00"), (later.path, "2025-10-01T09:00:00+09:00")] {
      run = try RaonProcess.run(["snapshot", "--catalog", "national", file, "--taken-at", time], in: dir, environment: stored)
      #expect(run.status == 0, "\(run.stderr)")
    }
    run = try RaonProcess.run(
      ["report", "--snapshot", "2", "--compare-to", "1", "--format", formats, "--out", "stored"], in: dir, environment: stored)
    #expect(run.status == 0, "\(run.stderr)")

    let heldDir = dir.appendingPathComponent("held")
    let names = TestInspection.files(under: heldDir).map { String($0.path.dropFirst(heldDir.path.count)) }.sorted()
    let storedDir = dir.appendingPathComponent("stored")
    #expect(names == TestInspection.files(under: storedDir).map { String($0.path.dropFirst(storedDir.path.count)) }.sorted())
    #expect(names.contains("/report.json") && names.contains("/report.xlsx"))
    let changes = try #require(try Self.report(dir, "held")["changes"] as? [String: Any])
    #expect((changes["changed"] as? Int ?? 0) > 0 && (changes["removed"] as? Int ?? 0) > 0, "\(changes)")
    for name in names where !name.hasSuffix(".xlsx") {
      let a = try Data(contentsOf: heldDir.appendingPathComponent(name))
      let b = try Data(contentsOf: storedDir.appendingPathComponent(name))
      #expect(a == b, "\(name) differs")
    }
    // The workbooks' parts (docProps hold the time of writing).
    let compare = "import sys, zipfile\n"
      + "a, b = (zipfile.ZipFile(p) for p in sys.argv[1:])\n"
      + "parts = sorted(n for n in a.namelist() if n.startswith('xl/'))\n"
      + "assert parts == sorted(n for n in b.namelist() if n.startswith('xl/')), 'parts differ'\n"
      + "print(' '.join(n for n in parts if a.read(n) != b.read(n)) or 'same')"
    let sheets = try Python.run(
      ["-c", compare, heldDir.appendingPathComponent("report.xlsx").path, storedDir.appendingPathComponent("report.xlsx").path])
    #expect(sheets.status == 0 && sheets.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "same", "\(sheets.stdout)\(sheets.stderr)")
  }

  @Test func aBadFileOrASeoulStoreIsRefusedInOneLineAndRecordsNothing() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-input-bad")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "national.sqlite"]
    let recorded = try RaonProcess.run(
      ["snapshot", "--catalog", "national", Fixtures.nationalCSV.path, "--taken-at", "2025-03-31"], in: dir, environment: env)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    // The national header with an unterminated quote: a broken download.
    let header = "행사명,장소,행사내용,행사시작일자,행사종료일자,행사시작시각,행사종료시각,요금정보,주관기관명,주최기관명,전화번호,후원기관명,객석수,관람요금,입장연령,할인정보,유의사항,홈페이지주소,예매정보,주차장보유여부,소재지도로명주소,소재지지번주소,위도,경도,데이터기준일자,제공기관코드,제공기관명"
    let broken = dir.appendingPathComponent("broken.csv")
    try Data((header + "\n\"공연,장소\n").utf8).write(to: broken)
    let headerOnly = dir.appendingPathComponent("empty.csv")
    try Data((header + "\n").utf8).write(to: headerOnly)
    for (file, says) in [
      (broken.path, "broken.csv"), (headerOnly.path, "empty.csv"), (Fixtures.sampleCSV.path, "--catalog seoul"),
    ] {
      let run = try RaonProcess.run(
        ["report", "--input", file, "--taken-at", "2025-04-07", "--format", "json", "--out", "o"], in: dir, environment: env)
      #expect(run.status != 0, "\(file): \(run.stdout)")
      #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(says), "\(file): \(run.stderr)")
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
      #expect(try Self.snapshotCount(dir, env) == 1)
    }
    // A store of Seoul's catalog: --catalog national is refused before anything is read.
    let seoulEnv = ["RAON_DB": "seoul.sqlite"]
    let seoul = try RaonProcess.run(["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2024-09-09"], in: dir, environment: seoulEnv)
    #expect(seoul.status == 0, "\(seoul.stderr)")
    for arguments in [
      ["report", "--catalog", "national", "--input", Fixtures.nationalCSV.path, "--out", "o"],
      ["report", "--catalog", "national", "--api", "--api-base", "http://127.0.0.1:9", "--out", "o"],
    ] {
      let run = try RaonProcess.run(arguments, in: dir, environment: seoulEnv.merging(["DATA_GO_KR_KEY": Self.key]) { $1 })
      #expect(run.status == 1, "\(arguments): \(run.status) \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("holds the seoul catalog"), "\(run.stderr)")
      #expect(!run.stderr.contains("SECRET"))
      #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
      #expect(try Self.snapshotCount(dir, seoulEnv) == 1)
    }
  }

  @Test func theOpenAPIIsFetchedRecordedAndReportedWithTheKeyNeverWritten() async throws {
    let records = try CatalogFileReader.read(Fixtures.nationalCSV, profile: .national).records.prefix(2_500)
    let rows = records.map { record in
      CatalogProfile.national.fields.map { field in (field.apiKey, record[field.field] ?? "") }
    }
    let server = try await LoopbackPortalServer.start(key: Self.key, rows: Array(rows))
    await server.inject(.resultCode("01", message: "APPLICATION_ERROR"), forPage: 2)
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-report-api")
    defer { try? FileManager.default.removeItem(at: dir) }
    // The same 2,500 rows as a file, for the independent count.
    let head = dir.appendingPathComponent("head.csv")
    let cut = try Python.run([
      "-c",
      "import csv,sys; r=list(csv.reader(open(sys.argv[1],encoding='cp949',newline=''))); "
        + "csv.writer(open(sys.argv[2],'w',encoding='utf-8',newline='')).writerows(r[:2501])",
      Fixtures.nationalCSV.path, head.path,
    ])
    #expect(cut.status == 0, "\(cut.stderr)")
    let env = ["RAON_DB": "api.sqlite", "DATA_GO_KR_KEY": Self.key]
    let run = try await RaonProcess.runDetached(
      ["report", "--catalog", "national", "--api", "--api-base", server.baseURL.absoluteString,
       "--taken-at", "2025-03-31T09:00:00+09:00", "--format", "json,md,csv", "--out", "out"],
      in: dir, environment: env)
    #expect(run.status == 0, "\(run.stderr)")
    try Self.expectWeek(try Self.report(dir, "out"), counted: head, monday: "2025-03-31", day: "2025-03-31")
    // A wrong key: one line naming the variable, nothing recorded.
    let wrong = try await RaonProcess.runDetached(
      ["report", "--api", "--api-base", server.baseURL.absoluteString, "--format", "json", "--out", "o"],
      in: dir, environment: ["RAON_DB": "api.sqlite", "DATA_GO_KR_KEY": "Wrong+Key/SECRET=="])
    #expect(wrong.status == 1 && wrong.stderr.contains("DATA_GO_KR_KEY") && wrong.stderr.split(separator: "\n").count == 1,
      "\(wrong.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o").path))
    await server.stop()
    #expect(try Self.snapshotCount(dir, ["RAON_DB": "api.sqlite"]) == 1)
    let encoded = Self.key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? Self.key
    for (name, data) in try APIEndToEndTests.everything(in: dir, plus: [run, wrong]) {
      for secret in ["SECRET", encoded] {
        #expect(data.range(of: Data(secret.utf8)) == nil, "\(secret) in \(name)")
      }
    }
  }
}
