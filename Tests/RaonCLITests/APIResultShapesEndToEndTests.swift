import Foundation
import RaonIngest
import TestSupport
import Testing

/// `raon snapshot --api` against the loopback server answering in each of the Open API's
/// result shapes: a refused key says so (never "try again later"), a server-side error is
/// retried and the whole catalog recorded, and the key appears nowhere.
@Suite(.serialized) struct APIResultShapesEndToEndTests {
  static let key = "SHAPES-SECRET-KEY-0a1b2c3d4e"

  static func bodies(_ code: String, _ message: String) -> [(String, String)] {
    [
      (#"{"RESULT":{"CODE":"\#(code)","MESSAGE":"\#(message)"}}"#, "application/json"),
      (#"{"CODE":"\#(code)","MESSAGE":"\#(message)"}"#, "application/json"),
      ("<RESULT><CODE>\(code)</CODE><MESSAGE><![CDATA[\(message)]]></MESSAGE></RESULT>", "text/xml"),
    ]
  }

  @Test func everyShapeOfARefusedKeyAndOfAServerErrorThroughTheBinary() async throws {
    let rows = Array(APIRows.from(try CatalogFileReader.read(Fixtures.sampleCSV).records).prefix(1_500))
    let server = try await LoopbackAPIServer.start(key: Self.key, rows: rows)
    let dir = try Fixtures.temporaryDirectory("raon-e2e-shapes")
    defer { try? FileManager.default.removeItem(at: dir) }
    let env = ["RAON_DB": "store.sqlite", "SEOUL_API_KEY": Self.key]
    let base = server.baseURL.absoluteString
    var outputs: [RaonProcess.Result] = []
    for (body, type) in Self.bodies("INFO-100", "인증키가 유효하지 않습니다.") {
      await server.inject(.body(body, contentType: type), forPageStarting: 1)
      let run = try await RaonProcess.runDetached(["snapshot", "--api", "--api-base", base], in: dir, environment: env)
      outputs.append(run)
      #expect(run.status != 0, "\(body)")
      #expect(run.stderr.contains("the API key was refused (INFO-100"), "\(run.stderr)")
      #expect(!run.stderr.contains("try again later"))
    }
    for (i, (body, type)) in Self.bodies("ERROR-600", "데이터베이스 연결 오류").enumerated() {
      await server.inject(.body(body, contentType: type), forPageStarting: 1_001, times: 1)
      let run = try await RaonProcess.runDetached(
        ["snapshot", "--api", "--api-base", base, "--taken-at", "2024-09-1\(i)"], in: dir, environment: env)
      outputs.append(run)
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.contains("recorded snapshot \(i + 1): 1500 programs"), "\(run.stdout)")
    }
    await server.stop()
    for o in outputs {
      #expect(!o.stdout.contains(Self.key) && !o.stderr.contains(Self.key))
    }
    let store = try Data(contentsOf: dir.appendingPathComponent("store.sqlite"))
    #expect(store.range(of: Data(Self.key.utf8)) == nil)
  }
}
