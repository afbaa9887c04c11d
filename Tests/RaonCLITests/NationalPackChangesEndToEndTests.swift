import Foundation
import Testing
import TestSupport

/// A 시·도 pack's changes are the country's changes that are its events (issue 36): compared
/// event by event as the country's are, so a re-stamped 데이터기준일자 or a renamed provider is
/// no change in a pack either, and the 시·도 packs' changes add up to the country's, id for id.
@Suite(.serialized) struct NationalPackChangesEndToEndTests {
  static func json(_ url: URL) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  @Test func theRegionPacksChangesAddUpToTheCountrysIdForId() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-pack-changes")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "national.sqlite"]
    let later = try NationalLaterDownload.write(into: dir)
    for args in [
      ["snapshot", "--catalog", "national", Fixtures.nationalCSV.path, "--taken-at", "2025-03-31T09:00:00+09:00"],
      ["report", "--input", later.path, "--taken-at", "2025-10-01T09:00:00+09:00", "--compare-to", "previous",
       "--regions", "all", "--format", "json", "--out", "o"],
    ] {
      let run = try RaonProcess.run(args, in: dir, environment: env)
      #expect(run.status == 0, "\(args): \(run.stderr)")
    }
    let out = dir.appendingPathComponent("o")
    let country = try #require(try Self.json(out.appendingPathComponent("report.json"))["changes"] as? [String: Any])
    let regions = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("regions").path)
    #expect(regions.count > 5, "\(regions)")
    for key in ["addedIds", "removedIds", "changedIds"] {
      var fromPacks: [String] = []
      for region in regions {
        let pack = try Self.json(out.appendingPathComponent("regions/\(region)/report.json"))
        let changes = try #require(pack["changes"] as? [String: Any], "\(region)")
        fromPacks += changes[key] as? [String] ?? []
      }
      let whole = country[key] as? [String] ?? []
      #expect(!whole.isEmpty, "\(key)")
      let same = fromPacks.sorted() == whole.sorted()
      #expect(same, "\(key): the packs have \(fromPacks.count), the country \(whole.count)")
    }
  }
}
