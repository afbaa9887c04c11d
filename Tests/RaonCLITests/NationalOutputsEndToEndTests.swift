import Foundation
import TestSupport
import Testing

/// What a person opens of a national report and comparison (issue 36, round four's review):
/// CSV files named and headed in the national data's words, the workbook's 요금정보 and
/// 입장연령 sheets, its print header, a single provider's page 1, and `raon diff --out`
/// naming events by what they are and fields by their labels. Figures come from
/// Scripts/national_week.py and the downloads' own columns (Scripts/national_providers.py).
@Suite(.serialized) struct NationalOutputsEndToEndTests {
  static let scripts = NationalReportEndToEndTests.scripts
  static var download: URL { NationalReportEndToEndTests.download }
  static let env = ["RAON_DB": "national.sqlite"]

  struct Read {
    var csv: [String: (header: [String], rows: [[String]])] = [:]
    var xlsx: [String: [String: [String: Any]]] = [:]
    var order: [String: [String]] = [:]
    var text: [String: String] = [:]
  }

  /// The shared download (2025-03-31) and a later one built from it (2025-10-01).
  static func twoSnapshots(_ dir: URL) throws -> URL {
    let later = try NationalLaterDownload.write(from: download, into: dir)
    let recorded = try RaonProcess.run(
      ["snapshot", "--catalog", "national", download.path, later.path,
       "--taken-at", "2025-03-31T09:00:00+09:00", "--taken-at", "2025-10-01T09:00:00+09:00"],
      in: dir, environment: env)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    return later
  }

  static func read(_ folder: URL) throws -> Read {
    let run = try Python.run([scripts.appendingPathComponent("national_outputs_read.py").path, folder.path])
    #expect(run.status == 0, "\(run.stderr)")
    let json = try NationalReportEndToEndTests.json(run.stdout)
    var read = Read()
    for (name, any) in (json["csv"] as? [String: [String: Any]]) ?? [:] {
      read.csv[name] = ((any["header"] as? [String]) ?? [], (any["rows"] as? [[String]]) ?? [])
    }
    for (name, any) in (json["xlsx"] as? [String: [String: Any]]) ?? [:] {
      read.xlsx[name] = (any["sheets"] as? [String: [String: Any]]) ?? [:]
      read.order[name] = (any["order"] as? [String]) ?? []
    }
    read.text = (json["text"] as? [String: String]) ?? [:]
    return read
  }

  static func rows(_ sheet: [String: Any]?) -> [[String]] { (sheet?["rows"] as? [[String]]) ?? [] }

  static let seoulWords = ["분류", "자치구", "공연/행사명", "이용요금", "문화포털", "테마분류", "대표이미지", "신청일", "cultcode"]

  @Test func csvFilesAreNamedAndHeadedInTheNationalDataWords() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-csv")
    defer { try? FileManager.default.removeItem(at: dir) }
    let later = try Self.twoSnapshots(dir)
    let run = try RaonProcess.run(
      ["report", "--region", "경상남도 통영시", "--format", "csv,xlsx", "--out", "out"], in: dir, environment: Self.env)
    #expect(run.status == 0, "\(run.stderr)")
    let read = try Self.read(dir.appendingPathComponent("out"))
    let expectedNames: Set<String> = [
      "events.csv", "by_region.csv", "by_provider.csv", "by_fee.csv", "by_duration.csv", "provider_by_region.csv",
      "by_fee_kind.csv", "by_age.csv", "changes.csv",
    ]
    let country = Set(read.csv.keys.filter { $0.hasPrefix("csv/") }.map { String($0.dropFirst(4)) })
    #expect(country == expectedNames)
    let pack = Set(read.csv.keys.filter { $0.hasPrefix("regions/경상남도 통영시/csv/") }.map { ($0 as NSString).lastPathComponent })
    #expect(pack == expectedNames)
    // Every header a person reads is Korean and none is Seoul's.
    for (name, file) in read.csv {
      for cell in file.header {
        #expect(cell.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }, "\(name): \(cell)")
        #expect(!Self.seoulWords.contains { cell.contains($0) }, "\(name): \(cell)")
      }
    }
    let events = try #require(read.csv["csv/events.csv"])
    for label in ["행사명", "장소", "제공기관명", "시·도", "행사시작일자", "요금정보", "관람요금", "입장연령"] {
      #expect(events.header.contains(label), "\(label) in \(events.header)")
    }
    let counted = try Python.run([
      Self.scripts.appendingPathComponent("national_week.py").path, later.path, "2025-09-29", "2025-10-01",
    ])
    #expect(counted.status == 0, "\(counted.stderr)")
    let expected = try NationalReportEndToEndTests.json(counted.stdout)
    #expect(events.rows.count == expected["events"] as? Int)
    // 요금정보 per event, as the independent count has it.
    let kinds = try #require(read.csv["csv/by_fee_kind.csv"])
    var byKind: [String: Int] = [:]
    for row in kinds.rows where row.count >= 2 { byKind[row[0]] = Int(row[1]) }
    for key in ["free", "paid", "mixed", "unknown"] { #expect(byKind[key] == expected[key] as? Int, "\(key)") }
    let regions = try #require(read.csv["csv/by_region.csv"])
    var byRegion: [String: Int] = [:]
    for row in regions.rows where row.count >= 2 { byRegion[row[0]] = Int(row[1]) }
    #expect(byRegion == expected["eventsByRegion"] as? [String: Int])
  }

  @Test func theWorkbookHasFeeKindAndAgeSheetsAndSeparatesTitleFromPeriod() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-sheets")
    defer { try? FileManager.default.removeItem(at: dir) }
    let later = try Self.twoSnapshots(dir)
    let run = try RaonProcess.run(
      ["report", "--region", "경상남도 통영시", "--format", "xlsx", "--out", "out"], in: dir, environment: Self.env)
    #expect(run.status == 0, "\(run.stderr)")
    let read = try Self.read(dir.appendingPathComponent("out"))
    let counted = try Python.run([
      Self.scripts.appendingPathComponent("national_week.py").path, later.path, "2025-09-29", "2025-10-01",
    ])
    let expected = try NationalReportEndToEndTests.json(counted.stdout)
    let book = try #require(read.xlsx["report.xlsx"])
    let order = read.order["report.xlsx"] ?? []
    #expect(order.contains("요금정보별") && order.contains("입장연령별"), "\(order)")
    // Beside the other tables: after 기간별, before the cross table.
    if let fee = order.firstIndex(of: "요금정보별"), let duration = order.firstIndex(of: "기간별") {
      #expect(fee == duration + 1)
    }
    var feeCounts: [String: Int] = [:]
    for row in Self.rows(book["요금정보별"]) where row.count >= 2 { feeCounts[row[0]] = Int(row[1]) }
    for (label, key) in [("무료", "free"), ("유료", "paid"), ("혼합", "mixed"), ("미상", "unknown")] {
      #expect(feeCounts[label] == expected[key] as? Int, "\(label)")
    }
    #expect(feeCounts["합계"] == expected["events"] as? Int)
    var ageTotal: Int?
    for row in Self.rows(book["입장연령별"]) where row.first == "합계" { ageTotal = Int(row[1]) }
    #expect(ageTotal == expected["events"] as? Int)
    for name in ["요금정보별", "입장연령별"] {
      let sheet = book[name]
      #expect((sheet?["headerCenter"] as? String)?.isEmpty == false, "\(name) prints the week")
      // Six rows on one page: no header row to repeat (issue 47: a repeated header headed
      // empty columns above a chart on a page of its own).
      #expect((sheet?["printTitles"] as? String ?? "").isEmpty, "\(name) repeats its header row")
    }
    // The pack's page header: the title and the pack's name each on a line of their own,
    // left of the week, so neither runs into it.
    let pack = try #require(read.xlsx["regions/경상남도 통영시/report.xlsx"])
    for (name, sheet) in pack {
      let left = (sheet["headerLeft"] as? String) ?? ""
      #expect(left.split(separator: "\n").map(String.init) == ["전국 공연·행사 주간 현황", "경상남도 통영시"], "\(name): \(left)")
    }
  }

  @Test func aSingleProvidersPageOneSaysWhereItStandsAmongProviders() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-provider")
    defer { try? FileManager.default.removeItem(at: dir) }
    let recorded = try RaonProcess.run(
      ["snapshot", "--catalog", "national", Self.download.path, "--taken-at", "2025-03-31T09:00:00+09:00"],
      in: dir, environment: Self.env)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    let run = try RaonProcess.run(
      ["report", "--region", "경상남도 통영시", "--region", "문화체육관광부 국립국악원", "--format", "md,json", "--out", "out"],
      in: dir, environment: Self.env)
    #expect(run.status == 0, "\(run.stderr)")
    let read = try Self.read(dir.appendingPathComponent("out"))
    for (name, subject) in [("경상남도 통영시", "경상남도 통영시는"), ("문화체육관광부 국립국악원", "문화체육관광부 국립국악원은")] {
      let md = read.text["regions/\(name)/report.md"] ?? ""
      let pageOne = md.components(separatedBy: "**붙임**").first ?? ""
      let json = try NationalReportEndToEndTests.json(read.text["regions/\(name)/report.json"] ?? "{}")
      let region = try #require(json["region"] as? [String: Any])
      let peers = try #require(region["districtCount"] as? Int)
      let rank = try #require(region["runningRank"] as? Int)
      #expect(pageOne.contains("\(subject) 전국 이번 주 운영 행사의"), "\(pageOne)")
      #expect(pageOne.contains("제공기관 \(peers)곳 중 \(rank)위"), "\(pageOne)")
      #expect(!pageOne.contains("시·도 중") && !pageOne.contains("제공기관별로는"), "\(pageOne)")
    }
  }

  @Test func aComparisonNamesEventsAndFieldsAsAPersonKnowsThem() throws {
    let dir = try Fixtures.temporaryDirectory("raon-e2e-national-diff")
    defer { try? FileManager.default.removeItem(at: dir) }
    let later = try Self.twoSnapshots(dir)
    let run = try RaonProcess.run(
      ["diff", "previous", "latest", "--format", "md,html,csv,json,xlsx", "--out", "d"], in: dir, environment: Self.env)
    #expect(run.status == 0, "\(run.stderr)")
    let files = try Python.run([Self.scripts.appendingPathComponent("national_providers.py").path, Self.download.path, later.path])
    let known = try NationalReportEndToEndTests.json(files.stdout)
    let providers = Set((known["providers"] as? [String]) ?? [])
    let labels = Set((known["labels"] as? [String]) ?? []).union(["회차 수"])
    let read = try Self.read(dir.appendingPathComponent("d"))
    let codes = ["sessions", "feeText", "startTime", "latitude", "longitude", "endTime", "title"]

    // The workbook: each row's 제공기관 a provider as the downloads name it, each 항목 a label.
    let sheet = Self.rows(read.xlsx["changes.xlsx"]?["변경 사항"])
    let headerAt = try #require(sheet.firstIndex { $0.first == "구분" })
    let header = sheet[headerAt]
    let provider = try #require(header.firstIndex(of: "제공기관"))
    let field = try #require(header.firstIndex(of: "항목"))
    let body = sheet[(headerAt + 1)...].filter { !($0.first ?? "").isEmpty }
    #expect(body.count > 30)
    for row in body {
      #expect(providers.contains(row[provider]), "제공기관 \(row[provider])")
      if !row[field].isEmpty { #expect(labels.contains(row[field]), "항목 \(row[field])") }
    }
    // On paper the event's start date too (part of what tells one event from another):
    // 시작일's column is inside the print area.
    let start = try #require(header.firstIndex(of: "시작일"))
    let area = (read.xlsx["changes.xlsx"]?["변경 사항"]?["printArea"] as? String) ?? ""
    let lastColumn = area.split(separator: ":").last.map { $0.filter(\.isLetter) } ?? ""
    #expect(lastColumn.count == 1 && Int(lastColumn.unicodeScalars.first!.value) - 65 >= start, "\(area)")
    // The CSV: Korean header, providers and labels as in the workbook.
    let csv = try #require(read.csv["csv/changes.csv"])
    let csvProvider = try #require(csv.header.firstIndex(of: "제공기관명"))
    let csvField = try #require(csv.header.firstIndex(of: "항목"))
    for row in csv.rows {
      #expect(providers.contains(row[csvProvider]), "제공기관명 \(row[csvProvider])")
      if !row[csvField].isEmpty { #expect(labels.contains(row[csvField]), "항목 \(row[csvField])") }
    }
    // The documents: every listed event's provider is one the downloads name; no field code.
    for name in ["changes.md", "changes.html"] {
      let text = read.text[name] ?? ""
      #expect(text.contains("관람요금") && text.contains("회차 수"), "\(name)")
      for code in codes { #expect(!text.contains("\(code):") && !text.contains("\(code)</"), "\(name): \(code)") }
    }
    let md = read.text["changes.md"] ?? ""
    for line in md.split(separator: "\n") where line.hasPrefix("- ") && line.contains(" — ") {
      let details = line.components(separatedBy: " — ").last ?? ""
      let named = details.components(separatedBy: " · ").first ?? ""
      #expect(providers.contains(named), "\(line)")
    }
    // JSON keeps the codes for scripts and adds each field's label.
    let json = try NationalReportEndToEndTests.json(read.text["changes.json"] ?? "{}")
    let fields = try #require(json["changedFields"] as? [String: [[String: Any]]])
    for change in fields.values.flatMap({ $0 }) {
      #expect(labels.contains(change["label"] as? String ?? ""), "\(change)")
    }
  }
}
