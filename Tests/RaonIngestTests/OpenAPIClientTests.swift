import Foundation
import RaonCore
import Testing
import TestSupport

@testable import RaonIngest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A distinctive key, so a leak is easy to find in any text.
let secretKey = "SECRET-KEY-1234567890"

/// Collects progress events and sleeps from concurrent tasks.
final class Recorder: @unchecked Sendable {
  private let lock = NSLock()
  private var _events: [ProgressEvent] = []
  private var _sleeps: [Duration] = []

  var events: [ProgressEvent] { lock.withLock { _events } }
  var sleeps: [Duration] { lock.withLock { _sleeps } }
  func record(_ event: ProgressEvent) { lock.withLock { _events.append(event) } }
  func slept(_ duration: Duration) { lock.withLock { _sleeps.append(duration) } }

  /// Every progress message, as a display would print it.
  var messages: [String] { events.map(\.description) }
}

/// `count` synthetic API rows with cultcodes 100001, 100002, …
func syntheticRows(_ count: Int) -> [[String: String]] {
  (1...count).map { n in
    [
      "CODENAME": "전시/미술", "GUNAME": "중구", "TITLE": "전시 \(n)", "PLACE": "장소 \(n)",
      "IS_FREE": "무료", "STRTDATE": "2024-09-01 00:00:00.0",
      "HMPG_ADDR":
        "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=\(100_000 + n)&menuNo=200008",
    ]
  }
}

func ids(_ batch: CatalogBatch) -> [String] {
  batch.records.compactMap { $0[.portalURL].flatMap(ProgramID.fromPortalURL) }
}

/// A client against `server` with the real URLSession transport and instant backoff.
///
/// The default timeout is generous: a debug-built server needs about 2 s for a 1,000-row
/// page on an idle machine and several times that on a loaded CI machine; only the
/// timeout tests pass a short one.
func client(
  _ server: LoopbackAPIServer, key: String = secretKey, pageSize: Int = 10,
  timeout: TimeInterval = 60, retries: Int = 4, recorder: Recorder
) -> OpenAPIClient {
  OpenAPIClient(
    configuration: OpenAPIConfiguration(
      key: key, baseURL: server.baseURL, pageSize: pageSize, requestTimeout: timeout,
      retries: retries),
    transport: URLSessionTransport(),
    sleep: { recorder.slept($0) },
    random: { 0.5 },
    progress: { recorder.record($0) })
}

/// Runs `body`, expecting an OpenAPIError, and checks the key appears nowhere.
func expectFailure(
  _ recorder: Recorder, _ body: () async throws -> CatalogBatch,
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) async -> OpenAPIError? {
  do {
    _ = try await body()
    Issue.record("expected a failure", sourceLocation: sourceLocation)
    return nil
  } catch let error as OpenAPIError {
    #expect(!error.description.contains(secretKey), sourceLocation: sourceLocation)
    #expect(!String(reflecting: error).contains(secretKey), sourceLocation: sourceLocation)
    #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
    #expect(
      recorder.messages.allSatisfy { !$0.contains(secretKey) }, sourceLocation: sourceLocation)
    return error
  } catch {
    Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    return nil
  }
}


// Serialized: the timeout tests need their servers to answer page 1 promptly, which a
// busy two-core machine running every loopback test at once does not guarantee.
@Suite(.serialized) struct OpenAPIClientLoopbackTests {
  static func sampleRows() throws -> [[String: String]] {
    let batch = try CSVCatalogReader.read(
      Data(contentsOf: Fixtures.sampleCSV), source: "sample.csv")
    return APIRows.from(batch.records)
  }

  @Test func fetchesTheWholeSample() async throws {
    let rows = try Self.sampleRows()
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: rows)
    defer { Task { await server.stop() } }
    let recorder = Recorder()
    let batch = try await client(server, pageSize: 1_000, recorder: recorder).fetchAll()
    #expect(batch.records.count == 4_998)
    #expect(batch.sourceTotal == 4_998)
    #expect(batch.source == server.baseURL.absoluteString)
    let expected = rows.compactMap { $0["HMPG_ADDR"].flatMap(ProgramID.fromPortalURL) }
    #expect(ids(batch) == expected)  // all ids, in row order
    #expect(Set(ids(batch)).count == 4_998)
    #expect(batch.records.first?[.title] == rows.first?["TITLE"])
    #expect(batch.records.allSatisfy { !$0.values.contains { $0?.contains(secretKey) == true } })
    #expect(batch.records.allSatisfy { $0.location?.source.contains(secretKey) == false })
    // 5 pages: 1 planned + 5 fetched events; the last one counts every row.
    #expect(recorder.events.first == .planned(totalRows: 4_998, pages: 5, attempt: 1))
    #expect(
      recorder.events.last
        == .pageFetched(pagesDone: 5, pages: 5, rowsFetched: 4_998, totalRows: 4_998))
    #expect(recorder.messages.allSatisfy { !$0.contains(secretKey) })
    // The key really was sent (in the path), just never shown.
    #expect(await server.requestPaths().allSatisfy { $0.contains(secretKey) })
  }

  @Test func retriesAPageThatFailsTwiceWithHTTP500() async throws {
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: syntheticRows(25))
    defer { Task { await server.stop() } }
    await server.inject(.httpStatus(500), forPageStarting: 11, times: 2)
    let recorder = Recorder()
    let batch = try await client(server, recorder: recorder).fetchAll()
    #expect(ids(batch) == (1...25).map { "cult:\(100_000 + $0)" })
    #expect(recorder.sleeps.count == 2)
    // Backoff 0.5 s then 1 s, times the jitter factor 0.5 + 0.5 × 0.5 = 0.75.
    #expect(recorder.sleeps == [.milliseconds(375), .milliseconds(750)])
    let retries = recorder.events.filter { if case .retrying = $0 { true } else { false } }
    #expect(retries.count == 2)
    #expect(recorder.messages.contains { $0.contains("page 2 (rows 11–20)") && $0.contains("HTTP 500") })
    #expect(await server.requestPaths().count == 5)  // pages 1, 2 (×3), 3
  }

  @Test func retriesAServerSideResultCodeInTheBody() async throws {
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: syntheticRows(25))
    defer { Task { await server.stop() } }
    await server.inject(.resultCode("ERROR-500", message: "서버 오류입니다."), forPageStarting: 21)
    let recorder = Recorder()
    let batch = try await client(server, recorder: recorder).fetchAll()
    #expect(batch.records.count == 25)
    #expect(recorder.sleeps.count == 1)
    #expect(recorder.messages.contains { $0.contains("ERROR-500") })
  }

  @Test func aBadKeyFailsAtOnceAndSaysWhatToDo() async throws {
    let server = try await LoopbackAPIServer.start(key: "THE-RIGHT-KEY", rows: syntheticRows(5))
    defer { Task { await server.stop() } }
    let recorder = Recorder()
    let error = await expectFailure(recorder) {
      try await client(server, recorder: recorder).fetchAll()
    }
    guard case .badKey? = error else {
      Issue.record("expected badKey, got \(String(describing: error))")
      return
    }
    #expect(error?.description.contains("set SEOUL_API_KEY to a valid key") == true)
    #expect(recorder.sleeps.isEmpty)
    #expect(await server.requestPaths().count == 1)
  }

  @Test func anHTMLBodyFailsWithARedactedSnippet() async throws {
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: syntheticRows(25))
    defer { Task { await server.stop() } }
    await server.inject(.htmlBody, forPageStarting: 11)
    let recorder = Recorder()
    let error = await expectFailure(recorder) {
      try await client(server, recorder: recorder).fetchAll()
    }
    guard case .notJSON(let page, let status, let snippet)? = error else {
      Issue.record("expected notJSON, got \(String(describing: error))")
      return
    }
    #expect(page == "page 2 (rows 11–20)")
    #expect(status == 200)
    #expect(snippet.contains("502 Bad Gateway"))
    // The page echoed the path with the key; the snippet shows the mask instead.
    #expect(snippet.contains("while requesting /****/js"))
  }

  @Test func truncatedJSONFailsNamingThePageAndPosition() async throws {
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: syntheticRows(25))
    defer { Task { await server.stop() } }
    await server.inject(.truncatedJSON, forPageStarting: 21)
    let recorder = Recorder()
    let error = await expectFailure(recorder) {
      try await client(server, recorder: recorder).fetchAll()
    }
    guard case .malformedJSON(let page, let detail)? = error else {
      Issue.record("expected malformedJSON, got \(String(describing: error))")
      return
    }
    #expect(page == "page 3 (rows 21–25)")
    #expect(detail.contains("truncated") && detail.contains("byte "))
  }

  @Test func aTotalGrowingMidPagingIsReplannedIntoTheCorrectCatalog() async throws {
    let rows = try Self.sampleRows()
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: rows)
    defer { Task { await server.stop() } }
    var newRow = rows[0]
    newRow["TITLE"] = "새 프로그램"
    newRow["HMPG_ADDR"] =
      "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=999999&menuNo=200008"
    await server.insertRowAtFrontAfterFirstPage(newRow)
    let recorder = Recorder()
    let batch = try await client(server, pageSize: 1_000, recorder: recorder).fetchAll()
    // 4,998 + the inserted one, each once, the new one first.
    #expect(batch.records.count == 4_999)
    #expect(batch.sourceTotal == 4_999)
    #expect(Set(ids(batch)).count == 4_999)
    #expect(ids(batch).first == "cult:999999")
    let replans = recorder.events.filter { if case .replanning = $0 { true } else { false } }
    #expect(replans.count == 1)
    #expect(recorder.messages.contains { $0.contains("reported 4999 rows in all, page 1 4998") })
  }

  @Test func aSlowAnswerTimesOutAndIsRetried() async throws {
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: syntheticRows(25))
    defer { Task { await server.stop() } }
    await server.inject(.delay(.seconds(6)), forPageStarting: 11)
    let recorder = Recorder()
    let batch = try await client(server, timeout: 2, recorder: recorder).fetchAll()
    #expect(batch.records.count == 25)
    #expect(recorder.sleeps.count == 1)
  }

  @Test func anAlwaysSlowPageFailsClearly() async throws {
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: syntheticRows(25))
    defer { Task { await server.stop() } }
    await server.inject(.delay(.seconds(6)), forPageStarting: 11, times: 10)
    let recorder = Recorder()
    let error = await expectFailure(recorder) {
      try await client(server, timeout: 2, retries: 1, recorder: recorder).fetchAll()
    }
    guard case .retriesExhausted(let page, let attempts, _)? = error else {
      Issue.record("expected retriesExhausted, got \(String(describing: error))")
      return
    }
    #expect(page == "page 2 (rows 11–20)")
    #expect(attempts == 2)
    #expect(error?.description.contains("no answer within 2") == true)
  }

  @Test func anEmptyCatalogFailsWithNoData() async throws {
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: [])
    defer { Task { await server.stop() } }
    let recorder = Recorder()
    let error = await expectFailure(recorder) {
      try await client(server, recorder: recorder).fetchAll()
    }
    guard case .noData? = error else {
      Issue.record("expected noData, got \(String(describing: error))")
      return
    }
  }

  @Test func aRequestErrorFailsAtOnce() async throws {
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: syntheticRows(25))
    defer { Task { await server.stop() } }
    await server.inject(
      .resultCode("ERROR-336", message: "데이터요청은 한번에 최대 1000건을 넘을 수 없습니다."),
      forPageStarting: 1)
    let recorder = Recorder()
    let error = await expectFailure(recorder) {
      try await client(server, recorder: recorder).fetchAll()
    }
    guard case .requestRejected(_, let code, _)? = error else {
      Issue.record("expected requestRejected, got \(String(describing: error))")
      return
    }
    #expect(code == "ERROR-336")
    #expect(error?.description.contains("at most 1,000 rows") == true)
    #expect(recorder.sleeps.isEmpty)
  }

  @Test func theServerRefusesMoreThanAThousandRows() async throws {
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: syntheticRows(5))
    defer { Task { await server.stop() } }
    let url = server.baseURL.appendingPathComponent("\(secretKey)/json/culturalEventInfo/1/1001/")
    let response = try await URLSessionTransport().get(url, timeout: 10)
    let page = try JSONCatalogReader.readAPIPage(response.body, source: "t", firstRow: 1)
    #expect(page.resultCode == "ERROR-336")
  }

  @Test func anUnreachableServerFailsWithoutShowingTheKey() async throws {
    // A port that was free a moment ago: connection refused, a URLError whose user info
    // holds the failing URL — with the key in it.
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: [])
    await server.stop()
    let recorder = Recorder()
    let error = await expectFailure(recorder) {
      try await client(server, timeout: 5, retries: 2, recorder: recorder).fetchAll()
    }
    guard case .retriesExhausted(_, let attempts, let problem)? = error else {
      Issue.record("expected retriesExhausted, got \(String(describing: error))")
      return
    }
    #expect(attempts == 3)
    #expect(problem.contains("URLError"))
  }
}
