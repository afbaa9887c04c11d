import Foundation
import RaonCore
import Testing
import TestSupport

@testable import RaonIngest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A transport that answers from a closure (given the START row and the call number).
struct ScriptedTransport: HTTPTransport {
  let answer: @Sendable (URL) async throws -> HTTPResponse
  func get(_ url: URL, timeout: TimeInterval) async throws -> HTTPResponse {
    try await answer(url)
  }
}

/// The API page body for `rows` (cultcodes) with `total`.
func pageBody(total: Int, cultcodes: [Int]) -> HTTPResponse {
  let rows = cultcodes.map {
    #"{"TITLE":"T\#($0)","HMPG_ADDR":"https://x/view.do?cultcode=\#($0)"}"#
  }
  let body = """
    {"culturalEventInfo":{"list_total_count":\(total),"RESULT":{"CODE":"INFO-000","MESSAGE":"ok"},"row":[\(rows.joined(separator: ","))]}}
    """
  return HTTPResponse(status: 200, body: Array(body.utf8))
}

func startRow(_ url: URL) -> Int {
  let parts = url.path.split(separator: "/")
  return parts.count >= 2 ? Int(parts[parts.count - 2]) ?? 0 : 0
}

@Suite struct OpenAPIClientUnitTests {
  static let base = URL(string: "http://api.example")

  func makeClient(
    _ answer: @escaping @Sendable (URL) async throws -> HTTPResponse, pageSize: Int = 10,
    recorder: Recorder
  ) throws -> OpenAPIClient {
    OpenAPIClient(
      configuration: OpenAPIConfiguration(
        key: secretKey, baseURL: try #require(Self.base), pageSize: pageSize, maxReplans: 2),
      transport: ScriptedTransport(answer: answer), sleep: { recorder.slept($0) },
      random: { 0 }, progress: { recorder.record($0) })
  }

  @Test func overlappingPagesAreReplannedThenFailWithCounts() async throws {
    // Page 2 always repeats the last row of page 1: 20 rows listed, 19 distinct.
    let recorder = Recorder()
    let client = try makeClient({ url in
      startRow(url) == 1
        ? pageBody(total: 20, cultcodes: Array(1...10))
        : pageBody(total: 20, cultcodes: Array(10...19))
    }, recorder: recorder)
    let error = await expectFailure(recorder) { try await client.fetchAll() }
    guard case .incomplete(let attempts, let detail)? = error else {
      Issue.record("expected incomplete, got \(String(describing: error))")
      return
    }
    #expect(attempts == 3)
    #expect(detail.contains("1 row(s) appeared twice"))
    #expect(detail.contains("19 distinct programs for list_total_count 20"))
  }

  @Test func aShortPageIsAHole() async throws {
    let recorder = Recorder()
    let client = try makeClient({ url in
      startRow(url) == 1
        ? pageBody(total: 15, cultcodes: Array(1...10))
        : pageBody(total: 15, cultcodes: [11, 12, 13])
    }, recorder: recorder)
    let error = await expectFailure(recorder) { try await client.fetchAll() }
    guard case .incomplete(_, let detail)? = error else {
      Issue.record("expected incomplete, got \(String(describing: error))")
      return
    }
    #expect(detail.contains("page 2 (rows 11–15) held 3 rows"))
  }

  @Test func rowsWithoutCultcodeAreIdentifiedByTheirWholeRecord() {
    let a = RawRecord(["TITLE": "A", "PLACE": "P"])
    let b = RawRecord(["TITLE": "A", "PLACE": "Q"])
    #expect(OpenAPIClient.identity(of: a) != OpenAPIClient.identity(of: b))
    #expect(OpenAPIClient.identity(of: a) == OpenAPIClient.identity(of: RawRecord(["TITLE": "A", "PLACE": "P"])))
    #expect(OpenAPIClient.identity(of: RawRecord(["HMPG_ADDR": "x?cultcode=7"])) == "cult:7")
  }

  @Test func urlErrorsAreRetriedAndReportedWithoutTheKey() async throws {
    let recorder = Recorder()
    let client = try makeClient({ url in
      // Like URLSession's own errors: the failing URL, key and all, in the user info.
      throw URLError(
        .timedOut,
        userInfo: [
          NSURLErrorFailingURLErrorKey: url,
          NSLocalizedDescriptionKey: "The request timed out for \(url.absoluteString)",
        ])
    }, recorder: recorder)
    let error = await expectFailure(recorder) { try await client.fetchAll() }
    guard case .retriesExhausted(let page, let attempts, let problem)? = error else {
      Issue.record("expected retriesExhausted, got \(String(describing: error))")
      return
    }
    #expect(page == "page 1 (rows 1–10)")
    #expect(attempts == 5)
    #expect(problem.contains("/****/json/culturalEventInfo/1/10/"))
    // Backoff doubles from 0.5 s with jitter factor 0.5 (random() = 0).
    #expect(recorder.sleeps == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)])
  }

  @Test func theBatchNamesTheBaseURLNotTheKey() async throws {
    let recorder = Recorder()
    let client = try makeClient({ _ in pageBody(total: 3, cultcodes: [1, 2, 3]) }, recorder: recorder)
    let batch = try await client.fetchAll()
    #expect(batch.source == "http://api.example")
    #expect(batch.sourceTotal == 3)
    #expect(batch.records.allSatisfy { $0.location?.source == "http://api.example" })
  }

  @Test func requestURLsFollowTheContract() throws {
    let client = try makeClient({ _ in pageBody(total: 0, cultcodes: []) }, pageSize: 1_000, recorder: Recorder())
    let url = client.requestURL(.init(index: 2, start: 1001, end: 2000))
    #expect(url?.absoluteString == "http://api.example/\(secretKey)/json/culturalEventInfo/1001/2000/")
    #expect(OpenAPIConfiguration(key: "k", pageSize: 5_000).pageSize == 1_000)
  }
}

@Suite struct KeyRedactorTests {
  @Test func replacesTheKeyAndItsEncodedForm() {
    let redactor = KeyRedactor(key: "a b/c")
    #expect(redactor.redact("x/a b/c/y") == "x/****/y")
    #expect(redactor.redact("x/a%20b%2Fc/y") == "x/****/y")
    #expect(KeyRedactor(key: "").redact("unchanged") == "unchanged")
  }

  @Test func describesURLErrorsWithoutTheKey() throws {
    let url = try #require(URL(string: "http://h:8088/\(secretKey)/json/culturalEventInfo/1/5/"))
    let error = URLError(
      .cannotConnectToHost,
      userInfo: [
        NSURLErrorFailingURLErrorKey: url,
        NSLocalizedDescriptionKey: "Could not connect to \(url.absoluteString)",
      ])
    #expect(String(describing: error).contains(secretKey))  // the danger is real
    let text = KeyRedactor(key: secretKey).describe(error)
    #expect(!text.contains(secretKey))
    #expect(text.contains("/****/"))
  }
}
