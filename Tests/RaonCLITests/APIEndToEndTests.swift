import Foundation
import RaonIngest
import TestSupport
import Testing

/// `raon` against a real HTTP server on 127.0.0.1 serving the sample as Open API pages.
@Suite(.serialized) struct APIEndToEndTests {
  static let key = "E2E-SECRET-KEY-9f8e7d6c5b4a"

  static func sampleRows() throws -> [[String: String]] {
    APIRows.from(try CatalogFileReader.read(Fixtures.sampleCSV).records)
  }

  /// Every byte Raon wrote or printed, as text, for the key scan.
  static func everything(in dir: URL, plus outputs: [RaonProcess.Result]) throws -> [String: Data] {
    var all: [String: Data] = [:]
    for path in FileManager.default.subpaths(atPath: dir.path) ?? [] {
      let url = dir.appendingPathComponent(path)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
        all[path] = try Data(contentsOf: url)
      }
    }
    for (i, o) in outputs.enumerated() {
      all["stdout-\(i)"] = Data(o.stdout.utf8)
      all["stderr-\(i)"] = Data(o.stderr.utf8)
    }
    return all
  }

  @Test func aReportFromTheAPIRecordsTheWholeCatalogAndNeverWritesTheKey() async throws {
    let server = try await LoopbackAPIServer.start(key: Self.key, rows: try Self.sampleRows())
    let dir = try Fixtures.temporaryDirectory("raon-e2e-api")
    defer { try? FileManager.default.removeItem(at: dir) }
    // One page fails with HTTP 500 first: the client retries it.
    await server.inject(.httpStatus(500), forPageStarting: 2001, times: 1)
    let env = ["RAON_DB": "store.sqlite", "SEOUL_API_KEY": Self.key]
    let run = try await RaonProcess.runDetached(
      ["report", "--api", "--api-base", server.baseURL.absoluteString, "--taken-at", "2024-09-10", "--out", "r"],
      in: dir, environment: env)
    #expect(run.status == 0, "\(run.stderr)")
    let list = try await RaonProcess.runDetached(["snapshots", "--json"], in: dir, environment: env)
    let items = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
    #expect(items.count == 1)
    #expect((items.first?["programCount"] as? NSNumber)?.intValue == 4998)
    #expect((items.first?["sourceTotal"] as? NSNumber)?.intValue == 4998)

    // A bad key and a server error page quoting the URL: clear failures, nothing recorded.
    let badKey = try await RaonProcess.runDetached(
      ["snapshot", "--api", "--api-base", server.baseURL.absoluteString], in: dir,
      environment: ["RAON_DB": "store.sqlite", "SEOUL_API_KEY": Self.key + "-wrong"])
    #expect(badKey.status != 0)
    #expect(badKey.stderr.contains("SEOUL_API_KEY"))
    await server.inject(.htmlBody, times: 10)
    let html = try await RaonProcess.runDetached(
      ["snapshot", "--api", "--api-base", server.baseURL.absoluteString], in: dir, environment: env)
    #expect(html.status != 0)
    #expect(html.stderr.split(separator: "\n").count == 1, "\(html.stderr)")
    await server.stop()
    let unreachable = try await RaonProcess.runDetached(
      ["snapshot", "--api", "--api-base", server.baseURL.absoluteString], in: dir, environment: env)
    #expect(unreachable.status != 0)

    let after = try await RaonProcess.runDetached(["snapshots", "--json"], in: dir, environment: env)
    let still = try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]] ?? []
    #expect(still.count == 1, "a failed ingestion recorded something")

    // The key appears nowhere: not in the store, the report, or anything printed.
    let needle = Data(Self.key.utf8)
    for (name, bytes) in try Self.everything(in: dir, plus: [run, list, badKey, html, unreachable, after]) {
      #expect(bytes.range(of: needle) == nil, "the API key leaked into \(name)")
    }
  }
}
