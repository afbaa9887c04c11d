import Foundation
import TestSupport
import Testing

/// The API key never leaks however a server echoes it: a server that echoes the key followed by a combining mark, in upper
/// case, or HTML- or percent-escaped made it leak into the error line. Now no form of it
/// appears, and a server's text is quoted only as a short, control-free excerpt.
@Suite(.serialized) struct KeyEchoRedactionEndToEndTests {
  static let key = "LeakCanary7Q2w9E4r6T8y0U"

  static func rows() -> [[String: String]] {
    (1...3).map { n in
      [
        "CODENAME": "전시/미술", "GUNAME": "중구", "TITLE": "전시 \(n)", "PLACE": "장소",
        "IS_FREE": "무료", "STRTDATE": "2024-09-01 00:00:00.0", "END_DATE": "2024-09-30 00:00:00.0",
        "HMPG_ADDR": "https://culture.seoul.go.kr/view.do?cultcode=\(900_000 + n)",
      ]
    }
  }

  /// Every way the echo could carry the key, decoded and case-folded by Python (not by
  /// the code under test) to look for it.
  @Test func theKeyNeverLeaksHoweverTheServerEchoesIt() async throws {
    let dir = try Fixtures.temporaryDirectory("raon-h2-redact")
    defer { try? FileManager.default.removeItem(at: dir) }
    let server = try await LoopbackAPIServer.start(key: Self.key, rows: Self.rows())
    let base = server.baseURL.absoluteString
    let html = Self.key.unicodeScalars.map { "&#x\(String($0.value, radix: 16));" }.joined()
    let decimal = Self.key.unicodeScalars.map { "&#\($0.value);" }.joined()
    let percent = Self.key.unicodeScalars.map { "%\(String($0.value, radix: 16, uppercase: true))" }.joined()
    let mixed = "Leak&#67;anary7Q2%77" + String(Self.key.dropFirst(13)).lowercased()
    let echoes = [
      "키 \(Self.key)\u{301} 오류",
      "KEY \(Self.key.uppercased()) REJECTED",
      "key=\(html)", "key=\(decimal)", "key=\(percent)", "key=\(mixed)",
      "\(Self.key)\u{0}\u{1B}[2J\u{7}" + String(repeating: "x", count: 5_000),
    ]
    var stderrs: [String] = []
    for echo in echoes {
      await server.inject(.resultCode("ERROR-310", message: echo), forPageStarting: 1, times: 1)
      let run = try await RaonProcess.runDetached(
        ["snapshot", "--api", "--api-base", base], in: dir,
        environment: ["RAON_DB": "store.sqlite", "SEOUL_API_KEY": Self.key])
      #expect(run.status == 1, "\(run.stderr)")
      #expect(run.stderr.contains("ERROR-310"), "\(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
      #expect(run.stderr.utf8.count < 600, "a server's text is quoted at length: \(run.stderr.utf8.count) bytes")
      #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{7}"))
      stderrs.append(run.stderr)
    }
    await server.stop()
    let found = try TestInspection.python(
      """
      import sys, json, html, urllib.parse, unicodedata
      key = sys.argv[1].lower()
      texts = json.loads(sys.argv[2])
      def forms(t):
          t2 = html.unescape(urllib.parse.unquote(html.unescape(t)))
          stripped = "".join(c for c in unicodedata.normalize("NFD", t2) if not unicodedata.combining(c))
          return [t.lower(), t2.lower(), stripped.lower()]
      print(json.dumps([t for t in texts if any(key in f for f in forms(t))]))
      """, [Self.key, String(decoding: try JSONSerialization.data(withJSONObject: stderrs), as: UTF8.self)])
    #expect(found == "[]", "the key leaked in: \(found)")
  }
}
