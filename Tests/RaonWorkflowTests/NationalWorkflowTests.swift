import Foundation
import RaonAnalytics
import RaonCore
import RaonExport
import RaonIngest
import RaonStore
import TestSupport
import Testing

@testable import RaonWorkflow

/// The national catalog recorded and compared (issue 36), on the real download and later
/// and earlier downloads built from it, against an independent Python computation by the
/// documented key (Tests/RaonCLITests/Scripts/national_events.py).
@Suite("National catalog: recording and comparing")
struct NationalWorkflowTests {
  static let scripts = Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts")

  struct Setup {
    var dir: URL
    var store: SnapshotStore
    var job: SnapshotJob
    var environment: RaonEnvironment
  }

  static func setUp(_ label: String, variables: [String: String] = [:]) throws -> Setup {
    let dir = try Fixtures.temporaryDirectory(label)
    let store = try SnapshotStore(path: dir.appendingPathComponent("store.sqlite").path)
    let environment = RaonEnvironment(variables: variables, workingDirectory: dir)
    return Setup(dir: dir, store: store, job: SnapshotJob(store: store, environment: environment, profile: .national), environment: environment)
  }

  static func day(_ text: String) -> Date { CalendarDay(iso: text)?.koreaMidnight ?? Date() }

  static func python(_ arguments: [String]) throws -> [String: [String]] {
    let run = try Python.run(arguments)
    guard run.status == 0, let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] else {
      throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: run.stderr])
    }
    return object.compactMapValues { $0 as? [String] }
  }

  @Test func aLaterDownloadComparesAsThePythonReadingOfTheKeySays() throws {
    let setup = try Self.setUp("raon-national-later")
    let later = setup.dir.appendingPathComponent("later.csv")
    let built = try Python.run([Self.scripts.appendingPathComponent("national_later.py").path, Fixtures.nationalCSV.path, later.path])
    #expect(built.status == 0, "\(built.stderr)")
    let intended = try #require(try JSONSerialization.jsonObject(with: Data(built.stdout.utf8)) as? [String: Any])
    let expected = try Self.python([Self.scripts.appendingPathComponent("national_events.py").path, "diff", Fixtures.nationalCSV.path, later.path])

    let recorded = try setup.job.record([
      (Fixtures.nationalCSV.path, Self.day("2025-03-31")), (later.path, Self.day("2025-10-01")),
    ])
    let counted = try Python.run([Self.scripts.appendingPathComponent("national_events.py").path, "keys", later.path])
    let laterRows = (try JSONSerialization.jsonObject(with: Data(counted.stdout.utf8)) as? [String: Any])?["rows"] as? Int
    #expect(recorded.map(\.info.programCount) == [7_617, laterRows ?? -1])
    let outcome = try DiffJob(store: setup.store, storePath: "store", environment: setup.environment, profile: .national)
      .run(from: "1", to: "2", formats: [], out: nil, options: ExportOptions())
    #expect(outcome.diff.addedIds == expected["added"])
    #expect(outcome.diff.removedIds == expected["removed"])
    #expect(outcome.diff.changedIds == expected["changed"])
    // …and what the later download was built to hold.
    #expect(outcome.diff.added.count == intended["added"] as? Int)
    #expect(outcome.diff.removedIds == intended["removed"] as? [String])
    #expect(outcome.diff.changedIds == intended["changed"] as? [String])
    #expect(outcome.kinds.removedEnded + outcome.kinds.removedWithdrawn == 30)
  }

  @Test func anEarlierDownloadWithTheOldRegionNamesAndCodesChangesNothing() throws {
    let setup = try Self.setUp("raon-national-renames")
    let earlier = setup.dir.appendingPathComponent("earlier.csv")
    let script = """
      import csv, io, sys
      text = open(sys.argv[1], "rb").read().decode("cp949", errors="replace")
      table = list(csv.reader(io.StringIO(text, newline="")))
      header, rows = table[0], table[1:]
      c = {h: i for i, h in enumerate(header)}
      renamed = 0
      for r in rows:
          for old, new in (("강원특별자치도", "강원도"), ("전북특별자치도", "전라북도"), ("대구광역시 군위군", "경상북도 군위군")):
              for f in ("제공기관명", "소재지도로명주소", "소재지지번주소"):
                  if r[c[f]].startswith(old):
                      r[c[f]] = new + r[c[f]][len(old):]
                      renamed += f == "제공기관명"
          code = r[c["제공기관코드"]]
          r[c["제공기관코드"]] = {"6530000": "6420000", "6540000": "6450000", "5141000": "5140000"}.get(code, code[:3] + "0" + code[4:] if code[:2] in ("41", "42", "43", "46", "47") and code[3] == "1" else code)
      csv.writer(open(sys.argv[2], "w", encoding="cp949", errors="replace", newline=""), lineterminator="\\r\\n").writerows([header] + rows)
      print(renamed)
      """
    let file = setup.dir.appendingPathComponent("earlier.py")
    try script.write(to: file, atomically: true, encoding: .utf8)
    let run = try Python.run([file.path, Fixtures.nationalCSV.path, earlier.path])
    #expect(run.status == 0, "\(run.stderr)")
    #expect((Int(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 500)
    _ = try setup.job.record([(earlier.path, Self.day("2023-01-02")), (Fixtures.nationalCSV.path, Self.day("2025-03-31"))])
    let outcome = try DiffJob(store: setup.store, storePath: "store", environment: setup.environment, profile: .national)
      .run(from: "1", to: "2", formats: [], out: nil, options: ExportOptions())
    #expect(outcome.diff.isEmpty, "\(outcome.summary)")
    // Named as on each snapshot's day.
    let programs = try setup.store.programs(inSnapshot: 1)
    let early = NationalAnalysis.events(programs, profile: .national, on: try #require(CalendarDay(iso: "2023-01-02")))
    let late = NationalAnalysis.events(programs, profile: .national, on: try #require(CalendarDay(iso: "2025-03-31")))
    #expect(early.contains { $0.category == "강원도 양양군" } && !early.contains { $0.district == "강원특별자치도" })
    #expect(late.contains { $0.category == "강원특별자치도 양양군" } && late.contains { $0.district == "전북특별자치도" })
    #expect(early.contains { $0.category == "경상북도 군위군" && $0.district == "경상북도" })
    #expect(late.contains { $0.category == "대구광역시 군위군" && $0.district == "대구광역시" })
  }

  @Test func theOpenAPIsFetchComparesEqualToTheCSV() async throws {
    let key = "Ab+cD/ef1234567890SECRET=="
    let setup = try Self.setUp("raon-national-api", variables: ["DATA_GO_KR_KEY": key])
    let rows = try CatalogFileReader.read(Fixtures.nationalCSV, profile: .national).records.map { record in
      CatalogProfile.national.fields.map { field in (field.apiKey, record[field.field] ?? "") }
    }
    let server = try await LoopbackPortalServer.start(key: key, rows: rows)
    _ = try setup.job.record([(Fixtures.nationalCSV.path, Self.day("2025-03-31"))])
    let fetched = try await setup.job.recordFromAPI(base: server.baseURL.absoluteString, takenAt: Self.day("2025-04-01"))
    await server.stop()
    #expect(fetched.programCount == 7_617 && fetched.sourceTotal == 7_617)
    #expect(!fetched.source.contains("SECRET"))
    let outcome = try DiffJob(store: setup.store, storePath: "store", environment: setup.environment, profile: .national)
      .run(from: "1", to: "2", formats: [], out: nil, options: ExportOptions())
    #expect(outcome.diff.isEmpty, "\(outcome.summary)")
    // No key in the store.
    let bytes = try Data(contentsOf: setup.dir.appendingPathComponent("store.sqlite"))
    #expect(bytes.range(of: Data("SECRET".utf8)) == nil)
  }

  @Test func aStoreHoldsOneCatalogAndAFileIsCheckedAgainstIt() throws {
    let setup = try Self.setUp("raon-national-one")
    _ = try setup.job.record([(Fixtures.nationalCSV.path, Self.day("2025-03-31"))])
    let seoul = SnapshotJob(store: setup.store, environment: setup.environment)
    #expect(throws: StoreError.otherCatalog(path: setup.store.location, stored: "national", asked: "seoul")) {
      try seoul.record([(Fixtures.sampleCSV.path, Self.day("2025-04-01"))])
    }
    #expect(throws: CatalogFileError.self) {
      try setup.job.record([(Fixtures.sampleCSV.path, Self.day("2025-04-01"))])
    }
    #expect(try setup.store.snapshots().count == 1)
    #expect(throws: CatalogError.storeHolds(store: setup.store.location, held: .national, asked: .seoul)) {
      try CatalogProfile.choose("seoul", store: setup.store)
    }
    #expect(try CatalogProfile.choose(nil, store: setup.store).name == .national)
  }

  @Test func theConfigsNationalSectionExtendsTheLineage() throws {
    let config = try RaonConfig.parse(
      """
      lang = "ko"
      [national]
      api_base = "http://127.0.0.1:9/openapi"
      renames = [ { old = "경기도 화성시", new = "경기도 화성특별시", since = 2027-01-01 } ]
      merges = [ { from = "경기도 동두천시", into = "경기도 양주시", on = "2027-01-01" } ]
      """, path: "raon.toml")
    #expect(config.national.apiBase == "http://127.0.0.1:9/openapi")
    let profile = try config.national.profile()
    let lineage = try #require(profile.regions.lineage)
    #expect(lineage.provider(name: "경기도 화성특별시", code: "").id == "경기 화성시")
    #expect(lineage.keyLineage(of: "경기 동두천시") == "경기 양주시")
    #expect(throws: WorkflowError.config(path: "raon.toml", line: 3, message: "[national] each of 'merges' needs on = YYYY-MM-DD (like { from = \"인천광역시 중구\", into = \"인천광역시 제물포구\", on = 2026-07-01 })")) {
      try RaonConfig.parse("[national]\n\nmerges = [ { from = \"a\", into = \"b\" } ]\n", path: "raon.toml")
    }
    #expect(throws: WorkflowError.self) { try RaonConfig.parse("[national]\ncolour = 1\n", path: "raon.toml") }
  }
}
