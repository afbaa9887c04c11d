import Foundation
import TestSupport
import Testing

/// Where a national report or comparison says how big a download is, it counts events (the
/// rows of one natural key once), as its added / removed / changed do — never rows. The
/// shared download has 7,617 rows and fewer events; the event counts come from
/// Scripts/national_events.py (the documented key, nothing of Raon's Swift code).
@Suite(.serialized) struct NationalCountsEndToEndTests {
  static let scripts = NationalReportEndToEndTests.scripts
  static let env = NationalOutputsEndToEndTests.env

  /// (rows, events) of a download, counted independently.
  static func counted(_ file: URL) throws -> (rows: Int, events: Int) {
    let run = try Python.run([scripts.appendingPathComponent("national_events.py").path, "keys", file.path])
    #expect(run.status == 0, "\(run.stderr)")
    let json = try NationalReportEndToEndTests.json(run.stdout)
    return (try #require(json["rows"] as? Int), try #require(json["events"] as? Int))
  }

  static func thousands(_ n: Int) -> String { n.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) }

  @Test func aComparisonsHeaderCountsEventsNotRows() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-counts-diff")
    defer { try? FileManager.default.removeItem(at: dir) }
    let later = try NationalOutputsEndToEndTests.twoSnapshots(dir)
    let old = try Self.counted(NationalReportEndToEndTests.download)
    let new = try Self.counted(later)
    // Sessions make rows outnumber events, so a row count cannot pass for an event count.
    #expect(old.rows > old.events && new.rows > new.events)
    let run = try RaonProcess.run(
      ["diff", "previous", "latest", "--format", "md,html,json,xlsx", "--out", "d"], in: dir, environment: Self.env)
    #expect(run.status == 0, "\(run.stderr)")
    let read = try NationalOutputsEndToEndTests.read(dir.appendingPathComponent("d"))
    let (oldEvents, newEvents) = ("행사 \(Self.thousands(old.events))건", "행사 \(Self.thousands(new.events))건")
    for name in ["changes.md", "changes.html"] {
      let text = read.text[name] ?? ""
      #expect(text.contains(oldEvents) && text.contains(newEvents), "\(name)")
      for rows in [old.rows, new.rows] { #expect(!text.contains(Self.thousands(rows)), "\(name) counts \(rows) rows") }
    }
    let json = try NationalReportEndToEndTests.json(read.text["changes.json"] ?? "{}")
    #expect((json["from"] as? [String: Any])?["programCount"] as? Int == old.events)
    #expect((json["to"] as? [String: Any])?["programCount"] as? Int == new.events)
    let sheet = NationalOutputsEndToEndTests.rows(read.xlsx["changes.xlsx"]?["변경 사항"]).flatMap { $0 }
    #expect(sheet.contains { $0.contains(oldEvents) } && sheet.contains { $0.contains(newEvents) })
    for rows in [old.rows, new.rows] { #expect(!sheet.contains { $0.contains(Self.thousands(rows)) }, "\(rows) rows") }
  }

  @Test func aReportsDataInformationCountsEventsNotRows() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-counts-report")
    defer { try? FileManager.default.removeItem(at: dir) }
    let later = try NationalOutputsEndToEndTests.twoSnapshots(dir)
    let old = try Self.counted(NationalReportEndToEndTests.download)
    let new = try Self.counted(later)
    let run = try RaonProcess.run(
      ["report", "--region", "경상남도 통영시", "--format", "md,json,xlsx", "--out", "out"], in: dir, environment: Self.env)
    #expect(run.status == 0, "\(run.stderr)")
    // What the command says it reported on.
    #expect(run.stdout.contains("(\(new.events) events,"), "\(run.stdout)")
    let read = try NationalOutputsEndToEndTests.read(dir.appendingPathComponent("out"))
    // The country's (a pack counts its own events: see NationalReportEndToEndTests).
    for prefix in [""] {
      let md = read.text[prefix + "report.md"] ?? ""
      #expect(md.contains("행사 \(Self.thousands(new.events))건") && md.contains("행사 \(Self.thousands(old.events))건"), "\(prefix)")
      for rows in [old.rows, new.rows] { #expect(!md.contains(Self.thousands(rows) + "건"), "\(prefix) counts \(rows) rows") }
      let json = try NationalReportEndToEndTests.json(read.text[prefix + "report.json"] ?? "{}")
      #expect(json["unit"] as? String == "events")
      #expect((json["snapshot"] as? [String: Any])?["programCount"] as? Int == new.events, "\(prefix)")
      #expect((json["compareTo"] as? [String: Any])?["programCount"] as? Int == old.events, "\(prefix)")
      // The download's own size stays where it is said to be the source's: its rows.
      #expect((json["snapshot"] as? [String: Any])?["sourceTotal"] as? Int == new.rows, "\(prefix)")
      let info = NationalOutputsEndToEndTests.rows(read.xlsx[prefix + "report.xlsx"]?["자료 정보"])
      let numbers = info.flatMap { $0 }.compactMap { Int($0) ?? Double($0).map { Int($0) } }
      #expect(numbers.contains(new.events) && numbers.contains(old.events), "\(prefix)")
      #expect(!numbers.contains(new.rows) && !numbers.contains(old.rows), "\(prefix)")
    }
  }
}
