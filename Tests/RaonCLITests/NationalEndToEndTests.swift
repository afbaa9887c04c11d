import Foundation
import RaonCore
import RaonIngest
import TestSupport
import Testing

/// `raon snapshot --catalog national` and `raon diff` as a user runs them (issue 36): the
/// real download and a later one built from it, counted as an independent Python reading
/// of the documented key counts them; one catalog a store, refused in one line; the
/// portal's Open API with the key never written anywhere.
@Suite(.serialized) struct NationalEndToEndTests {
  static let scripts = Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts")
  static let key = "Nat+Key/E2E-SECRET=="

  @Test func theComparisonOfTwoDownloadsCountsWhatTheKeySays() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national")
    defer { try? FileManager.default.removeItem(at: dir) }
    let later = try NationalLaterDownload.write(into: dir)
    let counted = try Python.run([Self.scripts.appendingPathComponent("national_events.py").path, "diff", Fixtures.nationalCSV.path, later.path])
    let expected = try #require(try JSONSerialization.jsonObject(with: Data(counted.stdout.utf8)) as? [String: [String]])
    let env = ["RAON_DB": "national.sqlite"]
    let recorded = try RaonProcess.run(
      ["snapshot", "--catalog", "national", Fixtures.nationalCSV.path, later.path, "--taken-at", "2025-03-31", "--taken-at", "2025-10-01"],
      in: dir, environment: env)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    #expect(recorded.stdout.contains("7617"), "\(recorded.stdout)")
    // The store's catalog is used without --catalog.
    let diff = try RaonProcess.run(["diff", "1", "2"], in: dir, environment: env)
    #expect(diff.status == 0, "\(diff.stderr)")
    let added = expected["added"]?.count ?? -1, removed = expected["removed"]?.count ?? -1, changed = expected["changed"]?.count ?? -1
    #expect(diff.stdout.hasPrefix("snapshot 1 → 2: \(added) added, \(removed) removed, \(changed) changed"), "\(diff.stdout)")
    #expect(added == 15 && removed == 30 && changed == 30)
    // The comparison's files, in the national data's words (시·도, 제공기관, 행사).
    let out = try RaonProcess.run(["diff", "1", "2", "--out", "d", "--format", "md,json"], in: dir, environment: env)
    #expect(out.status == 0, "\(out.stderr)")
    let md = (try? String(contentsOf: dir.appendingPathComponent("d/changes.md"), encoding: .utf8)) ?? ""
    #expect(md.contains("추가 \(added)건") && md.contains("행사") && !md.contains("자치구") && !md.contains("프로그램"), "\(md.prefix(400))")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("d/changes.json"))) as? [String: Any]
    #expect(json?["added"] as? Int == added)
    #expect((json?["addedIds"] as? [String]).map(Set.init) == expected["added"].map(Set.init))
    #expect((json?["changedIds"] as? [String]).map(Set.init) == expected["changed"].map(Set.init))
  }

  @Test func aStoreHoldsOneCatalogAndSaysSoInOneLine() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-one")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "national.sqlite"]
    let first = try RaonProcess.run(["snapshot", "--catalog", "national", Fixtures.nationalCSV.path, "--taken-at", "2025-03-31"], in: dir, environment: env)
    #expect(first.status == 0, "\(first.stderr)")
    for (arguments, says) in [
      (["snapshot", Fixtures.sampleCSV.path, "--taken-at", "2025-04-01"], "--catalog seoul"),
      (["snapshot", "--catalog", "seoul", Fixtures.sampleCSV.path, "--taken-at", "2025-04-01"], "holds the national catalog"),
    ] {
      let run = try RaonProcess.run(arguments, in: dir, environment: env)
      #expect(run.status == 1, "\(arguments): \(run.status) \(run.stderr)")
      let lines = run.stderr.split(separator: "\n")
      #expect(lines.count == 1 && run.stderr.contains(says), "\(arguments): \(run.stderr)")
    }
    let wrong = try RaonProcess.run(["snapshot", "--catalog", "busan", Fixtures.nationalCSV.path], in: dir, environment: env)
    #expect(wrong.status == 64, "\(wrong.stderr)")
    let listed = try RaonProcess.run(["snapshots", "--json"], in: dir, environment: env)
    #expect(listed.status == 0 && listed.stdout.components(separatedBy: "\"id\"").count == 2, "\(listed.stdout)")
  }

  @Test func theOpenAPIIsFetchedAndTheKeyIsNeverWritten() async throws {
    let rows = try CatalogFileReader.read(Fixtures.nationalCSV, profile: .national).records.prefix(2_500).map { record in
      CatalogProfile.national.fields.map { field in (field.apiKey, record[field.field] ?? "") }
    }
    let server = try await LoopbackPortalServer.start(key: Self.key, rows: Array(rows))
    await server.inject(.resultCode("01", message: "APPLICATION_ERROR"), forPage: 2)
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-api")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "api.sqlite", "DATA_GO_KR_KEY": Self.key]
    let run = try await RaonProcess.runDetached(
      ["snapshot", "--catalog", "national", "--api", "--api-base", server.baseURL.absoluteString, "--taken-at", "2025-04-01"],
      in: dir, environment: env)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("2500"), "\(run.stdout)")
    let wrong = try await RaonProcess.runDetached(
      ["snapshot", "--catalog", "national", "--api", "--api-base", server.baseURL.absoluteString],
      in: dir, environment: ["RAON_DB": "api.sqlite", "DATA_GO_KR_KEY": "Wrong+Key/SECRET=="])
    #expect(wrong.status == 1 && wrong.stderr.contains("DATA_GO_KR_KEY") && wrong.stderr.split(separator: "\n").count == 1, "\(wrong.stderr)")
    let missing = try await RaonProcess.runDetached(
      ["snapshot", "--catalog", "national", "--api", "--api-base", server.baseURL.absoluteString], in: dir, environment: ["RAON_DB": "api.sqlite"])
    #expect(missing.status == 1 && missing.stderr.contains("DATA_GO_KR_KEY"), "\(missing.stderr)")
    await server.stop()
    let encoded = Self.key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? Self.key
    for (name, data) in try APIEndToEndTests.everything(in: dir, plus: [run, wrong, missing]) {
      for secret in ["SECRET", encoded] {
        #expect(data.range(of: Data(secret.utf8)) == nil, "\(secret) in \(name)")
      }
    }
  }
}
