import Foundation
import TestSupport
import Testing

/// `--lang en` on the national data: the fields a person reads are named in English (the
/// profile's English labels: 관람요금 → Admission fee, 회차 수 → Sessions) in the comparison's
/// documents and workbook and in the report's tables and sheets; Korean stays the default
/// and the codes stay in CSV and JSON. Values of the data (titles, places, regions) stay as
/// the data has them.
@Suite(.serialized) struct NationalEnglishEndToEndTests {
  static let env = NationalOutputsEndToEndTests.env

  /// Every Korean label of the national data's fields (the download's header, read by
  /// Python from the file itself), and the comparison's own 회차 수.
  static func koreanLabels() throws -> [String] {
    let run = try Python.run([
      "-c", "import csv,sys; print('\\n'.join(next(csv.reader(open(sys.argv[1], encoding='cp949')))))",
      NationalReportEndToEndTests.download.path,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let labels = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    #expect(labels.count == 27)
    return labels + ["회차 수"]
  }

  static func hasHangul(_ text: String) -> Bool { text.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) } }

  @Test func anEnglishComparisonNamesTheChangedFieldsInEnglish() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-english-diff")
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = try NationalOutputsEndToEndTests.twoSnapshots(dir)
    let run = try RaonProcess.run(
      ["diff", "previous", "latest", "--lang", "en", "--format", "md,json,xlsx,csv", "--out", "d"], in: dir,
      environment: Self.env)
    #expect(run.status == 0, "\(run.stderr)")
    let read = try NationalOutputsEndToEndTests.read(dir.appendingPathComponent("d"))
    // Markdown: each changed field's line starts with its name.
    let md = read.text["changes.md"] ?? ""
    let fieldLines = md.split(separator: "\n").filter { $0.hasPrefix("  - ") && $0.contains("」") }
    #expect(fieldLines.count >= 25)
    var named = Set<String>()
    for line in fieldLines {
      let name = String(line.dropFirst(4).split(separator: ":").first ?? "")
      #expect(!Self.hasHangul(name), "\(line)")
      named.insert(name)
    }
    #expect(named.isSuperset(of: ["Admission fee", "Start time", "Sessions"]), "\(named)")
    // The workbook's Field column.
    let sheet = NationalOutputsEndToEndTests.rows(read.xlsx["changes.xlsx"]?["Changes"])
    let headerAt = try #require(sheet.firstIndex { $0.contains("Field") })
    let field = try #require(sheet[headerAt].firstIndex(of: "Field"))
    #expect(!sheet[headerAt].contains(where: Self.hasHangul), "\(sheet[headerAt])")
    let values = sheet[(headerAt + 1)...].map { $0[field] }.filter { !$0.isEmpty }
    #expect(values.count >= 25)
    for value in values { #expect(!Self.hasHangul(value), "\(value)") }
    // JSON keeps the code and labels it in the report's language; CSV stays Korean.
    let json = try NationalReportEndToEndTests.json(read.text["changes.json"] ?? "{}")
    let changed = ((json["changedFields"] as? [String: [[String: Any]]]) ?? [:]).values.flatMap { $0 }
    #expect(!changed.isEmpty)
    for change in changed {
      #expect(!Self.hasHangul(change["label"] as? String ?? "한"), "\(change)")
      #expect(!Self.hasHangul(change["field"] as? String ?? "한"), "\(change)")
    }
    #expect(read.csv["csv/changes.csv"]?.header.contains("항목") == true)
  }

  @Test func anEnglishReportsTablesAndSheetsNameTheFieldsInEnglish() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-english-report")
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = try NationalOutputsEndToEndTests.twoSnapshots(dir)
    let korean = try Self.koreanLabels()
    let run = try RaonProcess.run(
      ["report", "--lang", "en", "--format", "md,xlsx", "--out", "out"], in: dir, environment: Self.env)
    #expect(run.status == 0, "\(run.stderr)")
    let read = try NationalOutputsEndToEndTests.read(dir.appendingPathComponent("out"))
    let md = read.text["report.md"] ?? ""
    let lines = md.split(separator: "\n").map(String.init)
    // Headings and table headers (the line above a |---| line) name no field in Korean.
    var headers = lines.filter { $0.hasPrefix("#") }
    for (i, line) in lines.enumerated() where i > 0 && line.hasPrefix("|") && line.allSatisfy({ "|-: ".contains($0) }) {
      headers.append(lines[i - 1])
    }
    #expect(headers.count > 10)
    for header in headers {
      for label in korean { #expect(!header.contains(label), "\(label) in \(header)") }
    }
    #expect(md.contains("By fee kind"))
    // Every sheet's header row (the first row of a list or of the events sheet).
    let book = try #require(read.xlsx["report.xlsx"])
    for name in ["Events", "Running this week", "Starting this week", "Ending this week", "Newly registered"] {
      let header = NationalOutputsEndToEndTests.rows(book[name]).first ?? []
      #expect(!header.isEmpty, "\(name)")
      for cell in header { #expect(!Self.hasHangul(cell), "\(name): \(cell)") }
    }
    // The Korean report keeps the download's labels.
    let ko = try RaonProcess.run(["report", "--format", "xlsx", "--out", "ko"], in: dir, environment: Self.env)
    #expect(ko.status == 0, "\(ko.stderr)")
    let koBook = try NationalOutputsEndToEndTests.read(dir.appendingPathComponent("ko")).xlsx["report.xlsx"] ?? [:]
    let koHeader = NationalOutputsEndToEndTests.rows(koBook["행사"]).first ?? []
    for label in ["행사명", "장소", "전화번호", "위도"] { #expect(koHeader.contains(label), "\(koHeader)") }
  }
}
