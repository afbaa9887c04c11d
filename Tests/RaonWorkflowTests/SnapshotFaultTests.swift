import Foundation
import RaonCore
import RaonIngest
import RaonStore
import TestSupport
import Testing

@testable import RaonWorkflow

/// Faults of the Open API during `SnapshotJob.recordFromAPI`, against a real store and a
/// real HTTP server: each ends in a correct snapshot or a clear failure that records
/// nothing (the snapshot count is unchanged).
@Suite(.serialized) struct SnapshotFaultTests {
  static let key = "FAULT-KEY-0123456789abcdef"
  static let sampleBatch: CatalogBatch? = try? CatalogFileReader.read(Fixtures.sampleCSV)

  struct Setup {
    let dir: URL
    let store: SnapshotStore
    let server: LoopbackAPIServer
    let job: SnapshotJob
    let sampleIDs: Set<String>
  }

  /// A store that already holds the sample (snapshot 1), and a server over the sample.
  func setUp() async throws -> Setup {
    let batch = try #require(Self.sampleBatch)
    let dir = try Fixtures.temporaryDirectory("raon-faults")
    let store = try SnapshotStore(path: dir.appendingPathComponent("store.sqlite").path)
    let server = try await LoopbackAPIServer.start(key: Self.key, rows: APIRows.from(batch.records))
    let environment = RaonEnvironment(
      now: { Date(timeIntervalSince1970: 1_726_000_000) },
      variables: ["SEOUL_API_KEY": Self.key], workingDirectory: dir)
    let job = SnapshotJob(store: store, environment: environment)
    _ = try job.recordSample()
    let ids = Set(batch.records.map { ProgramNormalizer.normalize($0).id })
    return Setup(dir: dir, store: store, server: server, job: job, sampleIDs: ids)
  }

  func tearDown(_ s: Setup) async {
    await s.server.stop()
    try? FileManager.default.removeItem(at: s.dir)
  }

  /// Runs the API snapshot; on success checks it is the whole sample, on failure that the
  /// store still holds only the first snapshot. Returns the error text, if any.
  func recordAndCheck(_ s: Setup, expectSuccess: Bool) async throws -> String? {
    let before = try s.store.snapshots().count
    do {
      let info = try await s.job.recordFromAPI(
        base: s.server.baseURL.absoluteString, takenAt: Date(timeIntervalSince1970: 1_726_100_000))
      #expect(expectSuccess, "expected a failure, got snapshot \(info.id)")
      #expect(try s.store.snapshots().count == before + 1)
      let programs = try s.store.programs(inSnapshot: info.id)
      #expect(programs.count == 4_998)
      #expect(Set(programs.map(\.id)) == s.sampleIDs)
      #expect(info.sourceTotal == 4_998)
      #expect(!info.source.contains(Self.key))
      #expect(try s.store.integrityCheck() == ["ok"])
      return nil
    } catch {
      let text = String(describing: error)
      #expect(!expectSuccess, "unexpected failure: \(text)")
      #expect(try s.store.snapshots().count == before, "a failed ingestion recorded something")
      #expect(!text.contains(Self.key), "the error shows the key: \(text)")
      #expect(!text.isEmpty && !text.contains("\n"))
      #expect(try s.store.integrityCheck() == ["ok"])
      return text
    }
  }

  @Test func aConnectionResetMidBodyIsRetriedIntoTheCorrectSnapshot() async throws {
    let s = try await setUp()
    await s.server.inject(.resetMidBody, forPageStarting: 2_001, times: 1)
    _ = try await recordAndCheck(s, expectSuccess: true)
    #expect(await s.server.requestPaths().count >= 6)  // 5 pages + 1 retry (more when a slow machine times out)
    await tearDown(s)
  }

  @Test func aPageThatAlwaysResetsFailsClearlyAndRecordsNothing() async throws {
    let s = try await setUp()
    await s.server.inject(.resetMidBody, forPageStarting: 3_001, times: 1_000)
    let text = try await recordAndCheck(s, expectSuccess: false)
    #expect(text?.contains("page 4 (rows 3001–4000) failed 5 times") == true, "\(text ?? "")")
    await tearDown(s)
  }

  @Test func aThousandRowPageHolding999RowsOnceIsReplannedIntoTheCorrectSnapshot() async throws {
    let s = try await setUp()
    await s.server.inject(.dropLastRows(1), forPageStarting: 1_001, times: 1)
    _ = try await recordAndCheck(s, expectSuccess: true)
    await tearDown(s)
  }

  @Test func aPageAlwaysShortByOneRowFailsClearlyAndRecordsNothing() async throws {
    let s = try await setUp()
    await s.server.inject(.dropLastRows(1), forPageStarting: 1_001, times: 1_000)
    let text = try await recordAndCheck(s, expectSuccess: false)
    #expect(text?.contains("page 2 (rows 1001–2000) held 999 rows") == true, "\(text ?? "")")
    await tearDown(s)
  }

  @Test func theLastPageShortByOneRowIsNotTakenForTheEnd() async throws {
    let s = try await setUp()
    await s.server.inject(.dropLastRows(1), forPageStarting: 4_001, times: 1_000)
    let text = try await recordAndCheck(s, expectSuccess: false)
    #expect(text?.contains("held 997 rows") == true, "\(text ?? "")")
    await tearDown(s)
  }

  @Test func rowsDuplicatedAcrossPagesOnceAreReplannedIntoTheCorrectSnapshot() async throws {
    let s = try await setUp()
    await s.server.inject(.repeatRowsOfPreviousPage(3), forPageStarting: 2_001, times: 1)
    _ = try await recordAndCheck(s, expectSuccess: true)
    await tearDown(s)
  }

  @Test func rowsAlwaysDuplicatedAcrossPagesFailClearlyAndRecordNothing() async throws {
    let s = try await setUp()
    await s.server.inject(.repeatRowsOfPreviousPage(3), forPageStarting: 2_001, times: 1_000)
    let text = try await recordAndCheck(s, expectSuccess: false)
    #expect(text?.contains("3 row(s) appeared twice") == true, "\(text ?? "")")
    await tearDown(s)
  }

  @Test func truncatedJSONAndHTMLBodiesFailClearlyAndRecordNothing() async throws {
    for fault in [LoopbackAPIServer.Fault.truncatedJSON, .htmlBody, .httpStatus(404)] {
      let s = try await setUp()
      await s.server.inject(fault, forPageStarting: 2_001, times: 1)
      let text = try await recordAndCheck(s, expectSuccess: false)
      #expect(text?.contains("page 3 (rows 2001–3000)") == true, "\(fault): \(text ?? "")")
      await tearDown(s)
    }
  }

  // Slow answers: `recordFromAPI` uses the production timeout (30 s), so the client is
  // driven here with a short one (3 s; the delay is 8 s) and its batch recorded exactly as the job records it.

  func recordWithShortTimeout(_ s: Setup) async throws -> SnapshotInfo {
    var configuration = OpenAPIConfiguration(
      key: Self.key, baseURL: s.server.baseURL, requestTimeout: 3, retries: 2,
      initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(20))
    configuration.maxReplans = 1
    let client = OpenAPIClient(configuration: configuration)
    let batch = try await client.fetchAll()
    return try s.store.record(
      SnapshotJob.prepare(batch).stamped(takenAt: Date(timeIntervalSince1970: 1_726_100_000)))
  }

  @Test func anAnswerSlowerThanTheTimeoutOnceIsRetriedIntoTheCorrectSnapshot() async throws {
    let s = try await setUp()
    await s.server.inject(.delay(.seconds(8)), forPageStarting: 1_001, times: 1)
    let info = try await recordWithShortTimeout(s)
    #expect(try s.store.programs(inSnapshot: info.id).count == 4_998)
    #expect(try s.store.snapshots().count == 2)
    await tearDown(s)
  }

  @Test func anAlwaysSlowPageFailsClearlyAndRecordsNothing() async throws {
    let s = try await setUp()
    await s.server.inject(.delay(.seconds(8)), forPageStarting: 1_001, times: 1_000)
    await #expect(throws: OpenAPIError.self) { _ = try await recordWithShortTimeout(s) }
    #expect(try s.store.snapshots().count == 1)
    await tearDown(s)
  }
}
