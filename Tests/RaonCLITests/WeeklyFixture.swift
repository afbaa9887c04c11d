import Foundation
import RaonIngest
import TestSupport
import Testing

/// One `raon weekly` set-up for the end-to-end tests: a folder with a `raon.toml`, the fake
/// Open API on 127.0.0.1 serving part of the real sample, a real SMTP server on 127.0.0.1
/// (STARTTLS and AUTH, a CA made for the test), and a store — an SQLite file or a schema of
/// the private PostgreSQL server.
final class WeeklyFixture: @unchecked Sendable {
  static let apiKey = "WEEKLY-API-KEY-5e4d3c2b1a0f"
  static let smtpPassword = "smtp-Secret-9x8y7z-w6v5"
  static let smtpUser = "raon"
  static let districts = ["강남구", "종로구", "중구"]
  /// The recipients of each list, as raon.toml gives them.
  static let lists: [String: [String]] = [
    "city": ["city1@example.go.kr", "city2@example.go.kr"],
    "강남구": ["gangnam@example.go.kr"], "종로구": ["jongno@example.go.kr"], "중구": ["junggu@example.go.kr"],
  ]

  enum Backend {
    case sqlite
    case postgres(PostgresTestServer)
  }

  let dir: URL
  let api: LoopbackAPIServer
  var smtp: SMTPTestServer
  let db: String
  let backend: Backend
  var extraMail: String = ""

  private init(dir: URL, api: LoopbackAPIServer, smtp: SMTPTestServer, db: String, backend: Backend) {
    self.dir = dir
    self.api = api
    self.smtp = smtp
    self.db = db
    self.backend = backend
  }

  static func make(
    _ label: String, backend: Backend = .sqlite, rows: Int = 1_200, smtpOptions: SMTPTestServer.Options = .init(),
    extraLists: [String: [String]] = [:], recordLastWeek: Bool = false
  ) async throws -> WeeklyFixture {
    let dir = try Fixtures.temporaryDirectory("raon-weekly-\(label)")
    let records = try CatalogFileReader.read(Fixtures.sampleCSV).records
    // The sample (taken 2024-09-09) moved to today, so this week has programs to report.
    let rows = Self.movedToToday(APIRows.from(Array(records.prefix(rows))))
    let api = try await LoopbackAPIServer.start(key: apiKey, rows: rows)
    let smtp = try SMTPTestServer.start(in: dir, user: smtpUser, password: smtpPassword, options: smtpOptions)
    let db: String
    switch backend {
    case .sqlite: db = dir.appendingPathComponent("raon.sqlite").path
    case .postgres(let server): db = server.url()
    }
    let fixture = WeeklyFixture(dir: dir, api: api, smtp: smtp, db: db, backend: backend)
    try fixture.writeConfig(extraLists: extraLists)
    if recordLastWeek {
      // Last week's snapshot, so the report compares this week with the one before.
      let lastWeek = try await RaonProcess.runDetached(
        ["snapshot", "--api", "--api-base", api.baseURL.absoluteString, "--db", db, "--taken-at",
         ISO8601DateFormatter().string(from: Date().addingTimeInterval(-7 * 86_400))],
        in: dir, environment: fixture.environment)
      #expect(lastWeek.status == 0, "\(lastWeek.stderr)")
    }
    return fixture
  }

  /// Every date of the rows moved by the days from 2024-09-09 (the sample's day) to today.
  static func movedToToday(_ rows: [[String: String]]) -> [[String: String]] {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Asia/Seoul")!
    let sampleDay = calendar.date(from: DateComponents(year: 2024, month: 9, day: 9))!
    let days = calendar.dateComponents([.day], from: sampleDay, to: calendar.startOfDay(for: Date())).day ?? 0
    let formatter = DateFormatter()
    formatter.calendar = calendar
    formatter.timeZone = calendar.timeZone
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd"
    let pattern = try! NSRegularExpression(pattern: #"\d{4}-\d{2}-\d{2}"#)
    return rows.map { row in
      var moved = row
      for key in ["STRTDATE", "END_DATE", "RGSTDATE", "DATE"] {
        guard let text = row[key] else { continue }
        var out = text
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
          guard let range = Range(match.range, in: text), let day = formatter.date(from: String(text[range])),
            let shifted = calendar.date(byAdding: .day, value: days, to: day)
          else { continue }
          out.replaceSubrange(range, with: formatter.string(from: shifted))
        }
        moved[key] = out
      }
      return moved
    }
  }

  /// Writes `raon.toml` (again, after the SMTP server moved or to change a setting).
  func writeConfig(extraLists: [String: [String]] = [:], weekly extraWeekly: String = "") throws {
    var lists = Self.lists
    for (k, v) in extraLists { lists[k, default: []] += v }
    func quoted(_ list: [String]) -> String { "[" + list.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
    var text = """
      db = "\(db)"
      api_base = "\(api.baseURL.absoluteString)"

      [weekly]
      source = "api"
      formats = ["pdf", "xlsx", "md"]
      districts = \(quoted(Self.districts))
      out = "out"
      site = "site"
      retry_for = "3s"
      retry_wait = "1s"
      \(extraWeekly)

      [mail]
      server = "smtp://127.0.0.1:\(smtp.port)"
      from = "culture@example.go.kr"
      user = "\(Self.smtpUser)"
      ca_file = "\(smtp.caFile)"
      operator = ["ops@example.go.kr"]
      city = \(quoted(lists["city"] ?? []))

      [mail.districts]

      """
    for district in Self.districts { text += "\"\(district)\" = \(quoted(lists[district] ?? []))\n" }
    try Data(text.utf8).write(to: dir.appendingPathComponent("raon.toml"))
  }

  var environment: [String: String] {
    var env = ["SEOUL_API_KEY": Self.apiKey, "RAON_SMTP_PASSWORD": Self.smtpPassword]
    if case .postgres(let server) = backend { env.merge(server.environment) { a, _ in a } }
    return env
  }

  /// `raon weekly ARGS` in the folder, off the cooperative pool.
  func weekly(_ arguments: [String] = [], environment extra: [String: String] = [:]) async throws -> RaonProcess.Result {
    try await RaonProcess.runDetached(["weekly"] + arguments, in: dir, environment: environment.merging(extra) { _, b in b })
  }

  /// `raon runs --json`: its status and what it printed.
  func runs() async throws -> (status: Int32, json: [String: Any], stderr: String) {
    let run = try await RaonProcess.runDetached(["runs", "--json", "--db", db], in: dir, environment: environment)
    let json = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]) ?? [:]
    return (run.status, json, run.stderr)
  }

  func deliveries(_ json: [String: Any]) -> [[String: Any]] { json["deliveries"] as? [[String: Any]] ?? [] }

  /// How many snapshots the store holds.
  func snapshotCount() async throws -> Int {
    let run = try await RaonProcess.runDetached(["snapshots", "--json", "--db", db], in: dir, environment: environment)
    return (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [Any])?.count ?? -1
  }

  /// Stops both servers and removes the folder (for a test's `defer`).
  func stop() {
    smtp.stop()
    api.stopNow()
    try? FileManager.default.removeItem(at: dir)
  }

  // MARK: - The week, computed here (not by Raon)

  /// This week's Monday in Korea, and its ISO week (`2025-W34`).
  static func thisWeek(_ now: Date = Date()) -> (monday: Date, mondayText: String, isoWeek: String) {
    var calendar = Calendar(identifier: .iso8601)
    calendar.timeZone = TimeZone(identifier: "Asia/Seoul") ?? TimeZone(secondsFromGMT: 9 * 3600)!
    let monday = calendar.date(from: calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: now))!
    let c = calendar.dateComponents([.year, .month, .day, .yearForWeekOfYear, .weekOfYear], from: monday)
    let text = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    return (monday, text, String(format: "%04d-W%02d", c.yearForWeekOfYear!, c.weekOfYear!))
  }

  /// The subject in official form, written out here: `[서울시 문화행사 주간 현황] 2025. 8. 18.(월) ~ 8. 24.(일) — 종로구`.
  static func subject(_ list: String, now: Date = Date()) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Asia/Seoul")!
    let monday = thisWeek(now).monday
    let sunday = calendar.date(byAdding: .day, value: 6, to: monday)!
    let m = calendar.dateComponents([.year, .month, .day], from: monday)
    let s = calendar.dateComponents([.year, .month, .day], from: sunday)
    let end = (s.year != m.year ? "\(s.year!). " : "") + "\(s.month!). \(s.day!).(일)"
    return "[서울시 문화행사 주간 현황] \(m.year!). \(m.month!). \(m.day!).(월) ~ \(end)"
      + (list == "city" ? "" : " — \(list)")
  }

  /// The attachment names: `서울시_문화행사_주간현황_2025-08-18_종로구.pdf`, `….xlsx`.
  static func attachmentNames(_ list: String) -> [String] {
    let stem = "서울시_문화행사_주간현황_\(thisWeek().mondayText)" + (list == "city" ? "" : "_\(list)")
    return ["\(stem).pdf", "\(stem).xlsx"]
  }

  /// The published file of a list: `out/<week>/report.pdf` or `out/<week>/districts/<d>/report.pdf`.
  func published(_ list: String, _ ext: String) -> URL {
    let week = dir.appendingPathComponent("out").appendingPathComponent(Self.thisWeek().isoWeek)
    return (list == "city" ? week : week.appendingPathComponent("districts").appendingPathComponent(list))
      .appendingPathComponent("report.\(ext)")
  }

  /// The list a received message was for, from its subject.
  static func list(ofSubject subject: String) -> String {
    for district in districts where subject.hasSuffix("— \(district)") { return district }
    return "city"
  }

  /// SHA-256 of a file, by Python's hashlib (independent of Raon's).
  static func sha256(_ url: URL) throws -> String {
    let run = try Python.run(["-c", "import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())", url.path])
    return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The files added, removed or written again since `before` (``publishedFiles()``), sorted.
  func changedSince(_ before: [String: Date]) -> [String] {
    let now = publishedFiles()
    return Set(before.keys).union(now.keys).filter { before[$0] != now[$0] }.sorted()
  }

  /// Every file under `dir`'s `out` and `site`, by path, with its modification time.
  func publishedFiles() -> [String: Date] {
    var out: [String: Date] = [:]
    for folder in ["out", "site"] {
      for file in TestInspection.files(under: dir.appendingPathComponent(folder))
      where file.lastPathComponent != ".raon-weekly.lock" {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        out[String(file.path.dropFirst(dir.path.count + 1))] = attributes?[.modificationDate] as? Date
      }
    }
    return out
  }
}
