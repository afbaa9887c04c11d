import Foundation
import RaonCore
import Testing
import TestSupport

@testable import RaonIngest

/// The Open API's three ways of answering a result code — wrapped JSON
/// (`{"RESULT":{…}}`), flat JSON (`{"CODE","MESSAGE"}`) and XML even on `/json/` — each
/// served from the loopback server over rows of the bundled sample.
@Suite(.serialized) struct OpenAPIResultShapesTests {
  enum Shape: String, CaseIterable, CustomStringConvertible {
    case wrapped, flat, xml
    var description: String { rawValue }

    func fault(_ code: String, _ message: String) -> LoopbackAPIServer.Fault {
      switch self {
      case .wrapped:
        return .body(
          #"{"RESULT":{"CODE":"\#(code)","MESSAGE":"\#(message)"}}"#, contentType: "application/json")
      case .flat:
        return .body(#"{"CODE":"\#(code)","MESSAGE":"\#(message)"}"#, contentType: "application/json")
      case .xml:
        return .body(
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<RESULT><CODE>\(code)</CODE><MESSAGE><![CDATA[\(message)]]></MESSAGE></RESULT>",
          contentType: "application/xml;charset=UTF-8")
      }
    }
  }

  /// The first 25 rows of the sample as API rows, and their cultcodes read with plain
  /// string operations (not Raon's id parser).
  static func sampleRows() throws -> (rows: [[String: String]], ids: [String]) {
    let batch = try CSVCatalogReader.read(Data(contentsOf: Fixtures.sampleCSV), source: "sample.csv")
    let rows = Array(APIRows.from(batch.records).prefix(25))
    let ids = rows.map { row -> String in
      let url = row["HMPG_ADDR"] ?? ""
      let after = url.components(separatedBy: "cultcode=").last ?? ""
      return "cult:" + String(after.prefix { $0.isNumber })
    }
    return (rows, ids)
  }

  /// Today's answer (2026): 24 fields, `INQUIRY` after `USE_FEE`, `PRO_TIME` last, and
  /// `LOT` ≈ 127 with `LAT` ≈ 37 (the other way round in 2024–2025).
  @Test func todaysTwentyFourFieldLayoutReadsInquiryEventTimeAndCoordinates() async throws {
    let (rows2024, expectedIDs) = try Self.sampleRows()
    var rows: [[String: String]] = []
    for (k, row) in rows2024.enumerated() {
      var r = row
      // 2024–2025 served LAT ≈ 127 and LOT ≈ 37; today each key holds its own axis.
      r["LAT"] = row["LOT"] ?? ""
      r["LOT"] = row["LAT"] ?? ""
      r["INQUIRY"] = k % 2 == 0 ? "02-399-\(1000 + k)" : ""
      r["PRO_TIME"] = k % 2 == 0 ? "" : "화~일 10:00~18:00"
      rows.append(r)
    }
    #expect(rows.allSatisfy { $0.count == 24 })
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: rows)
    defer { Task { await server.stop() } }
    let batch = try await client(server, recorder: Recorder()).fetchAll()
    #expect(ids(batch) == expectedIDs)
    let programs = batch.records.map(ProgramNormalizer.normalize)
    let old = try CSVCatalogReader.read(Data(contentsOf: Fixtures.sampleCSV), source: "sample.csv")
      .records.prefix(25).map(ProgramNormalizer.normalize)
    #expect(programs.map(\.inquiry) == rows.map { $0["INQUIRY"] ?? "" })
    #expect(programs.map(\.eventTime) == rows.map { $0["PRO_TIME"] ?? "" })
    #expect(programs.map(\.latitude) == old.map(\.latitude))
    #expect(programs.map(\.longitude) == old.map(\.longitude))
    #expect(programs.compactMap(\.latitude).allSatisfy { (37...38).contains($0) })
  }

  @Test(arguments: Shape.allCases)
  func aRefusedKeyIsSaidSoInEveryShape(_ shape: Shape) async throws {
    let (rows, _) = try Self.sampleRows()
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: rows)
    defer { Task { await server.stop() } }
    await server.inject(shape.fault("INFO-100", "인증키가 유효하지 않습니다."), forPageStarting: 1)
    let recorder = Recorder()
    let error = await expectFailure(recorder) {
      try await client(server, recorder: recorder).fetchAll()
    }
    guard case .badKey(_, let message)? = error else {
      Issue.record("\(shape): expected badKey, got \(String(describing: error))")
      return
    }
    #expect(message == "인증키가 유효하지 않습니다.")
    let text = error?.description ?? ""
    #expect(text.contains("the API key was refused (INFO-100"), "\(text)")
    #expect(!text.contains("try again later"))
    #expect(recorder.sleeps.isEmpty)  // not retried
    #expect(await server.requestPaths().count == 1)
  }

  @Test(arguments: Shape.allCases, ["ERROR-500", "ERROR-600", "ERROR-601"])
  func serverSideErrorsAreRetriedInEveryShape(_ shape: Shape, code: String) async throws {
    let (rows, expectedIDs) = try Self.sampleRows()
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: rows)
    defer { Task { await server.stop() } }
    await server.inject(shape.fault(code, "서버 오류입니다."), forPageStarting: 11, times: 2)
    let recorder = Recorder()
    let batch = try await client(server, recorder: recorder).fetchAll()
    #expect(ids(batch) == expectedIDs)
    #expect(batch.sourceTotal == 25)
    #expect(recorder.sleeps.count == 2)
    #expect(recorder.messages.contains { $0.contains(code) })
    #expect(await server.requestPaths().count == 5)  // pages 1, 2 (×3), 3
  }

  @Test(arguments: Shape.allCases)
  func noDataOnTheFirstPageIsAnEmptyCatalogInEveryShape(_ shape: Shape) async throws {
    let (rows, _) = try Self.sampleRows()
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: rows)
    defer { Task { await server.stop() } }
    await server.inject(shape.fault("INFO-200", "해당하는 데이터가 없습니다."), forPageStarting: 1)
    let recorder = Recorder()
    let error = await expectFailure(recorder) {
      try await client(server, recorder: recorder).fetchAll()
    }
    guard case .noData? = error else {
      Issue.record("\(shape): expected noData, got \(String(describing: error))")
      return
    }
  }

  @Test(arguments: Shape.allCases)
  func noDataPastTheEndIsTheEnd(_ shape: Shape) async throws {
    // The catalog shrank to 20 rows after page 1 said 25: page 3 answers INFO-200, the
    // fetch is planned again and ends with the 20 rows there are.
    let (rows, expectedIDs) = try Self.sampleRows()
    let server = try await LoopbackAPIServer.start(key: secretKey, rows: Array(rows.prefix(20)))
    defer { Task { await server.stop() } }
    // Page 1 claims 25 rows once (the wrapped shape with a total), then the truth.
    let firstPage: [String: Any] = [
      "culturalEventInfo": [
        "list_total_count": 25, "RESULT": ["CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다"],
        "row": Array(rows.prefix(10)),
      ] as [String: Any]
    ]
    let body = String(
      decoding: try JSONSerialization.data(withJSONObject: firstPage, options: [.sortedKeys]), as: UTF8.self)
    await server.inject(.body(body, contentType: "application/json"), forPageStarting: 1)
    await server.inject(shape.fault("INFO-200", "해당하는 데이터가 없습니다."), forPageStarting: 21)
    let recorder = Recorder()
    let batch = try await client(server, recorder: recorder).fetchAll()
    #expect(ids(batch) == Array(expectedIDs.prefix(20)))
    #expect(batch.sourceTotal == 20)
  }

  @Test func anHTMLPageIsStillNotJSON() throws {
    #expect(APIResultXML.read(Array("<!DOCTYPE html><html><body>502</body></html>".utf8)) == nil)
    let xml = "<RESULT><CODE>INFO-100</CODE><MESSAGE><![CDATA[인증키가 유효하지 않습니다.]]></MESSAGE></RESULT>"
    let read = APIResultXML.read(Array(xml.utf8))
    #expect(read?.code == "INFO-100" && read?.message == "인증키가 유효하지 않습니다.")
  }
}
