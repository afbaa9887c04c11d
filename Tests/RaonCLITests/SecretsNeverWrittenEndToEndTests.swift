import Foundation
import RaonCore
import TestSupport
import Testing

/// The API key appears nowhere: not in any output file, any line of standard output or
/// error, nor in the database's bytes — after successful runs and after failing runs whose
/// errors quote URLs.
@Suite(.serialized) struct SecretsNeverWrittenEndToEndTests {
  /// Unreserved characters only, so the loopback server can compare it in the path.
  static let key = "LeakCanary7Q2w9E4r6T8y0U"

  static func rows() throws -> [[String: String]] {
    // 30 synthetic programs are plenty for a key to have somewhere to hide.
    (1...30).map { n in
      [
        "CODENAME": "전시/미술", "GUNAME": "중구", "TITLE": "전시 \(n)", "PLACE": "장소 \(n)",
        "IS_FREE": "무료", "USE_FEE": "", "STRTDATE": "2024-09-01 00:00:00.0",
        "END_DATE": "2024-09-30 00:00:00.0", "DATE": "2024-09-01~2024-09-30",
        "LAT": "37.5", "LOT": "127.0",
        "HMPG_ADDR":
          "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=\(300_000 + n)&menuNo=200008",
      ]
    }
  }

  struct Run {
    var args: [String]
    var result: RaonProcess.Result
  }

  /// Runs every scenario in one folder and store, then scans everything.
  @Test func theKeyIsNowhereAfterSuccessfulAndFailingRuns() async throws {
    let dir = try Fixtures.temporaryDirectory("raon-secrets")
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try await LoopbackAPIServer.start(key: Self.key, rows: try Self.rows())
    let wrongKeyServer = try await LoopbackAPIServer.start(key: "another-key", rows: try Self.rows())
    let base = server.baseURL.absoluteString
    let env = ["RAON_DB": "store.sqlite", "SEOUL_API_KEY": Self.key]
    var runs: [Run] = []
    func raon(_ args: [String], _ environment: [String: String] = env) async throws -> RaonProcess.Result {
      let result = try await RaonProcess.runDetached(args, in: dir, environment: environment)
      runs.append(Run(args: args, result: result))
      return result
    }

    // Success: a snapshot and a report in every format from the API.
    let ok = try await raon(["report", "--api", "--api-base", base, "--out", "out/ok", "--taken-at", "2024-09-09"])
    #expect(ok.status == 0, "\(ok.stderr)")
    let ok2 = try await raon(["snapshot", "--api", "--api-base", base + "/", "--taken-at", "2024-09-16"])
    #expect(ok2.status == 0, "\(ok2.stderr)")

    // Failures whose messages quote pages, URLs or bodies.
    await server.inject(.htmlBody, forPageStarting: 1, times: 1)  // echoes the path, key and all
    let html = try await raon(["snapshot", "--api", "--api-base", base])
    #expect(html.status != 0 && html.stderr.contains("502 Bad Gateway"), "\(html.stderr)")

    await server.inject(.httpStatus(404), forPageStarting: 1, times: 1)
    let notFound = try await raon(["snapshot", "--api", "--api-base", base])
    #expect(notFound.status != 0 && notFound.stderr.contains("404"), "\(notFound.stderr)")

    await server.inject(.truncatedJSON, forPageStarting: 1, times: 1)
    let truncated = try await raon(["snapshot", "--api", "--api-base", base])
    #expect(truncated.status != 0 && truncated.stderr.contains("truncated"), "\(truncated.stderr)")

    await server.inject(.resultCode("ERROR-310", message: "요청 \(Self.key) 오류"), forPageStarting: 1, times: 1)
    let echoed = try await raon(["snapshot", "--api", "--api-base", base])
    #expect(echoed.status != 0 && echoed.stderr.contains("ERROR-310"), "\(echoed.stderr)")

    let badKey = try await raon(["snapshot", "--api", "--api-base", wrongKeyServer.baseURL.absoluteString])
    #expect(badKey.status != 0 && badKey.stderr.contains("INFO-100"), "\(badKey.stderr)")

    // The key inside --api-base itself: as a path segment, as user info, in a query, and
    // in a base that is not http(s) at all.
    let inPath = try await raon(["snapshot", "--api", "--api-base", "\(base)/\(Self.key)"])
    #expect(inPath.status != 0, "\(inPath.stdout)")
    let userInfo = try await raon(["snapshot", "--api", "--api-base", "http://\(Self.key)@127.0.0.1:1"])
    #expect(userInfo.status != 0)
    let query = try await raon(["snapshot", "--api", "--api-base", "http://127.0.0.1:1/?k=\(Self.key)"])
    #expect(query.status != 0)
    let notHTTP = try await raon(["snapshot", "--api", "--api-base", "ftp://\(Self.key)@example.invalid"])
    #expect(notHTTP.status != 0)
    let garbage = try await raon(["report", "--api", "--api-base", "::\(Self.key)::", "--out", "out/garbage"])
    #expect(garbage.status != 0)

    // Unreachable: connection refused on every attempt (retries with backoff, ~5 s).
    let unreachable = try await raon(["snapshot", "--api", "--api-base", "http://127.0.0.1:1"])
    #expect(unreachable.status != 0 && unreachable.stderr.contains("failed 5 times"), "\(unreachable.stderr)")

    // The same key given in a config file's api_base.
    try Data("api_base = \"http://127.0.0.1:1/\(Self.key)\"\n".utf8)
      .write(to: dir.appendingPathComponent("raon.toml"))
    let fromConfig = try await raon(["snapshot", "--api"])
    #expect(fromConfig.status != 0)
    try FileManager.default.removeItem(at: dir.appendingPathComponent("raon.toml"))

    // Listing and diffing what was stored.
    #expect(try await raon(["snapshots"]).status == 0)
    #expect(try await raon(["snapshots", "--json"]).status == 0)
    #expect(try await raon(["diff", "1", "2"]).status == 0)
    let final = try await raon(["report", "--out", "out/final", "--lang", "en"])
    #expect(final.status == 0, "\(final.stderr)")

    await server.stop()
    await wrongKeyServer.stop()

    var texts: [String: String] = [:]
    for (i, run) in runs.enumerated() {
      texts["run \(i) \(run.args) stdout"] = run.result.stdout
      texts["run \(i) \(run.args) stderr"] = run.result.stderr
      // Failing runs say so in one line.
      if run.result.status != 0 {
        let lines = run.result.stderr.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(run.args): \(run.result.stderr)")
      }
    }
    // Everything in the folder: reports, the store (+ WAL/SHM if any), leftovers.
    let leaks = TestInspection.leaks(of: Self.key, in: [dir], texts: texts)
    #expect(leaks.isEmpty, "the key leaked into: \(leaks)")
    // The database really was scanned and holds the API snapshots.
    #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("store.sqlite").path))
    let summary = try TestInspection.storeSummary(dir.appendingPathComponent("store.sqlite").path)
    #expect(summary.integrity == "ok")
    #expect(summary.programCounts == [1: 30, 2: 30])
  }
}
