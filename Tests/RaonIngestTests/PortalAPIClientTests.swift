import Foundation
import RaonCore
import Testing
import TestSupport

@testable import RaonIngest

/// The public data portal's Open API (issue 36): paged and count-verified over a real
/// HTTP server on 127.0.0.1, its result codes and its gateway's XML errors, the key in the
/// query string sent as the portal wants it and never shown.
@Suite("Portal Open API client")
struct PortalAPIClientTests {
  /// A key with the characters the portal's keys have (`+`, `/`, `=`).
  static let key = "Ab+cD/ef1234567890SECRET=="

  static func client(
    _ server: LoopbackPortalServer, key: String = key, pageSize: Int = 100, retries: Int = 2,
    recorder: Recorder
  ) -> OpenAPIClient {
    OpenAPIClient(
      configuration: OpenAPIConfiguration(
        key: key, api: CatalogProfile.national.api, baseURL: server.baseURL, pageSize: pageSize,
        requestTimeout: 60, retries: retries),
      transport: URLSessionTransport(), sleep: { recorder.slept($0) }, random: { 0.5 },
      progress: { recorder.record($0) })
  }

  static func rows(_ count: Int) throws -> [[(key: String, value: String)]] {
    try NationalShapesTests.apiRows(count)
  }

  /// Expects a failure whose text, and every progress line, hides the key in every form.
  static func failure(_ recorder: Recorder, _ body: () async throws -> CatalogBatch) async -> OpenAPIError? {
    do {
      _ = try await body()
      Issue.record("expected a failure")
      return nil
    } catch let error as OpenAPIError {
      for form in [key, key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key, "SECRET"] {
        #expect(!error.description.contains(form))
        #expect(recorder.messages.allSatisfy { !$0.contains(form) })
      }
      #expect(!error.description.contains("\n"))
      return error
    } catch {
      Issue.record("unexpected \(error)")
      return nil
    }
  }

  @Test func everyPageIsFetchedAndTheRowsNumberTheTotal() async throws {
    let rows = try Self.rows(250)
    let server = try await LoopbackPortalServer.start(key: Self.key, rows: rows)
    let recorder = Recorder()
    let batch = try await Self.client(server, recorder: recorder).fetchAll()
    #expect(batch.records.count == 250 && batch.sourceTotal == 250)
    let expected = Array(try NationalShapesTests.values(NationalShapesTests.real()).prefix(250))
    #expect(NationalShapesTests.values(batch) == expected)
    // The key went as the portal wants it: percent-encoded, once, in the query string.
    let targets = await server.requestTargets()
    #expect(targets.count == 3)
    #expect(targets.allSatisfy { $0.contains("serviceKey=Ab%2BcD%2Fef1234567890SECRET%3D%3D&") && $0.contains("type=json") })
    #expect(Set(targets.compactMap { $0.split(separator: "&").first { $0.hasPrefix("pageNo=") } }) == ["pageNo=1", "pageNo=2", "pageNo=3"])
    #expect(!batch.source.contains("SECRET"))
    await server.stop()
  }

  @Test func anEncodedKeyIsSentAsItIsAndAnXMLAnswerReadsToo() async throws {
    let rows = try Self.rows(120)
    let server = try await LoopbackPortalServer.start(key: Self.key, rows: rows, xml: true)
    let recorder = Recorder()
    let encoded = try #require(Self.key.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
    let batch = try await Self.client(server, key: encoded, recorder: recorder).fetchAll()
    #expect(batch.records.count == 120)
    #expect(await server.requestTargets().allSatisfy { $0.contains("serviceKey=\(encoded)&") })
    await server.stop()
  }

  @Test func theGatewaysKeyErrorIsOneLineNamingTheVariable() async throws {
    let server = try await LoopbackPortalServer.start(key: "another key", rows: try Self.rows(5))
    let recorder = Recorder()
    let error = await Self.failure(recorder) { try await Self.client(server, recorder: recorder).fetchAll() }
    guard case .keyRefused(_, let code, let message, let variable, _)? = error else {
      Issue.record("got \(String(describing: error))")
      return
    }
    #expect(code == "30" && message == "SERVICE_KEY_IS_NOT_REGISTERED_ERROR" && variable == "DATA_GO_KR_KEY")
    #expect(error?.description.contains("DATA_GO_KR_KEY") == true)
    await server.stop()
  }

  @Test func resultCodesDecideRetryOrFailure() async throws {
    let rows = try Self.rows(150)
    // 01 (application error) is retried and the fetch completes.
    var server = try await LoopbackPortalServer.start(key: Self.key, rows: rows)
    await server.inject(.resultCode("01", message: "APPLICATION_ERROR"), forPage: 2, times: 2)
    var recorder = Recorder()
    #expect(try await Self.client(server, recorder: recorder).fetchAll().records.count == 150)
    #expect(recorder.sleeps.count == 2)
    await server.stop()
    // 03 on page 1: no data; 22: the day's requests used up; 12: no such service.
    for (code, message) in [("03", "NODATA_ERROR"), ("22", "LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR"), ("12", "NO_OPENAPI_SERVICE_ERROR")] {
      server = try await LoopbackPortalServer.start(key: Self.key, rows: rows)
      await server.inject(.resultCode(code, message: message), forPage: 1)
      recorder = Recorder()
      let error = await Self.failure(recorder) { try await Self.client(server, recorder: recorder).fetchAll() }
      switch (code, error) {
      case ("03", .noData?), ("22", .requestRejected?), ("12", .requestRejected?): break
      default: Issue.record("\(code): got \(String(describing: error))")
      }
      if code == "22" { #expect(error?.description.contains("tomorrow") == true) }
      await server.stop()
    }
  }

  @Test func aShortPageOrAnotherTotalIsFetchedAgainOrRefused() async throws {
    let rows = try Self.rows(150)
    var server = try await LoopbackPortalServer.start(key: Self.key, rows: rows)
    await server.inject(.dropLastRows(3), forPage: 2)
    var recorder = Recorder()
    #expect(try await Self.client(server, recorder: recorder).fetchAll().records.count == 150)
    #expect(recorder.messages.contains { $0.contains("page 2") })
    await server.stop()
    server = try await LoopbackPortalServer.start(key: Self.key, rows: rows)
    await server.inject(.totalCount(151), forPage: 2, times: 10)
    recorder = Recorder()
    let error = await Self.failure(recorder) { try await Self.client(server, recorder: recorder).fetchAll() }
    guard case .incomplete(_, let detail)? = error else {
      Issue.record("got \(String(describing: error))")
      return
    }
    #expect(detail.contains("151"))
    await server.stop()
  }

  @Test func identicalRowsStandAsTheyAre() async throws {
    var rows = try Self.rows(20)
    rows.append(rows[0])
    let server = try await LoopbackPortalServer.start(key: Self.key, rows: rows)
    let recorder = Recorder()
    #expect(try await Self.client(server, pageSize: 7, recorder: recorder).fetchAll().records.count == 21)
    await server.stop()
  }
}
