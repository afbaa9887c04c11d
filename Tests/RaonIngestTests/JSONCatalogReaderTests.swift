import Foundation
import RaonCore
import Testing
import TestSupport

@testable import RaonIngest

@Suite struct JSONCatalogReaderTests {
  /// A hand-made portal JSON download: DESCRIPTION beside DATA, lower-case keys, dates as
  /// Unix milliseconds, nulls, one nested value.
  static let portalDownload = """
    {"DESCRIPTION": {"CODENAME": "분류", "TITLE": "공연/행사명"},
     "DATA": [
      {"codename": "클래식", "guname": "강남구", "title": "A \\"B\\", C", "place": "예술의전당",
       "strtdate": 1734793200000, "end_date": 1734793200000.0, "lat": 37.4802401962069,
       "lot": 127.014215239186, "is_free": "유료", "use_fee": null, "rank": 1.5e2,
       "tags": ["a", {"b": null}],
       "hmpg_addr": "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=149289&menuNo=200008"},
      {"codename": "전시", "guname": null, "title": "줄\\n바꿈 \\uD55C", "place": "P",
       "strtdate": 1725148800000, "end_date": null, "is_free": "무료", "flag": true}
     ]}
    """

  @Test func readsThePortalDownload() throws {
    let batch = try JSONCatalogReader.read(Data(Self.portalDownload.utf8), source: "d.json")
    #expect(batch.records.count == 2)
    #expect(batch.sourceTotal == 2)
    let first = batch.records[0]
    // Keys keep their source order.
    #expect(first.names.names.prefix(5) == ["codename", "guname", "title", "place", "strtdate"])
    #expect(first[.category] == "클래식")
    #expect(first[.title] == "A \"B\", C")
    #expect(first[.startDate] == "1734793200000")
    #expect(first[.endDate] == "1734793200000")  // 1734793200000.0 is an integer too
    #expect(first[.coordinateA] == "37.4802401962069")
    #expect(first[.coordinateB] == "127.014215239186")
    #expect(first[name: "rank"] == "150")
    #expect(first[name: "use_fee"] == nil)
    #expect(first.names.index(of: .feeText) != nil)  // present, null
    #expect(first[name: "tags"] == "[\"a\",{\"b\":null}]")
    #expect(first[.portalURL].flatMap(ProgramID.fromPortalURL) == "cult:149289")
    let second = batch.records[1]
    #expect(second[.district] == nil)
    #expect(second[.title] == "줄\n바꿈 한")
    #expect(second[name: "flag"] == "true")
    #expect(second.location == SourceLocation(source: "d.json", line: 2))
  }

  @Test func readsATopLevelArrayAndALowerCaseDataKey() throws {
    let array = #"[{"title": "T", "codename": "C", "guname": "중구", "place": "P", "is_free": "무료"}]"#
    #expect(try JSONCatalogReader.read(Data(array.utf8), source: "a.json").records.count == 1)
    let wrapped = #"{"data": \#(array)}"#
    #expect(try JSONCatalogReader.read(Data(wrapped.utf8), source: "w.json").records.count == 1)
  }

  @Test func readsAnAPIPage() throws {
    let page = """
      {"culturalEventInfo":{"list_total_count":4998,"RESULT":{"CODE":"INFO-000","MESSAGE":"정상 처리되었습니다"},
      "row":[{"CODENAME":"클래식","GUNAME":"강남구","TITLE":"T1","STRTDATE":"2024-12-22 00:00:00.0",
      "LAT":"37.48","LOT":"127.01","IS_FREE":"유료","HMPG_ADDR":"https://x/view.do?cultcode=1&m=2"},
      {"CODENAME":"전시","GUNAME":"","TITLE":"T2","STRTDATE":"2024-09-01 00:00:00.0",
      "LAT":"127.01","LOT":"37.48","IS_FREE":"무료","HMPG_ADDR":"https://x/view.do?cultcode=2"}]}}
      """
    let parsed = try JSONCatalogReader.readAPIPage(Array(page.utf8), source: "api", firstRow: 1001)
    #expect(parsed.totalCount == 4_998)
    #expect(parsed.resultCode == "INFO-000")
    #expect(parsed.records.count == 2)
    #expect(parsed.records[0][.startDate] == "2024-12-22 00:00:00.0")
    #expect(parsed.records[1].location?.line == 1002)
    // Rows with the same keys share one FieldNames.
    #expect(parsed.records[0].names === parsed.records[1].names)
    // A file holding an API page reads like any other catalog file.
    let batch = try JSONCatalogReader.read(Data(page.utf8), source: "page.json")
    #expect(batch.records.count == 2)
  }

  @Test func anAPIErrorAtTopLevelIsRecognised() throws {
    let body = #"{"RESULT":{"CODE":"INFO-100","MESSAGE":"인증키가 유효하지 않습니다."}}"#
    let page = try JSONCatalogReader.readAPIPage(Array(body.utf8), source: "api", firstRow: 1)
    #expect(page.resultCode == "INFO-100")
    #expect(page.records.isEmpty)
    #expect(throws: JSONCatalogError.self) {
      try JSONCatalogReader.read(Data(body.utf8), source: "e.json")
    }
  }

  @Test func truncatedJSONNamesTheFileAndPosition() throws {
    let cut = Data(Self.portalDownload.utf8.prefix(300))
    #expect {
      try JSONCatalogReader.read(cut, source: "cut.json")
    } throws: { error in
      guard let error = error as? JSONCatalogError,
        case .syntax(let source, let offset, _, _, _, let truncated) = error
      else { return false }
      return source == "cut.json" && offset == 300 && truncated
        && error.description.hasPrefix("cut.json: the JSON is truncated")
        && error.description.contains("byte 300")
    }
  }

  @Test func invalidJSONIsAnErrorNotACrash() {
    var generator = SplitMix64(seed: 99)
    let starts = ["{", "[", "{\"DATA\": [", "[{\"a\":", String(repeating: "[", count: 10_000)]
    for start in starts {
      let noise = (0..<200).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      #expect(throws: (any Error).self) {
        try JSONCatalogReader.read(Data(Array(start.utf8) + noise), source: "g.json")
      }
    }
  }

  @Test func numbersBecomeCatalogText() {
    #expect(JSONNode.canonicalNumber("1734793200000") == "1734793200000")
    #expect(JSONNode.canonicalNumber("1734793200000.0") == "1734793200000")
    #expect(JSONNode.canonicalNumber("-0") == "0")
    #expect(JSONNode.canonicalNumber("37.56650") == "37.5665")
    #expect(JSONNode.canonicalNumber("1e3") == "1000")
    #expect(JSONNode.canonicalNumber("0.1") == "0.1")
  }
}

@Suite struct CatalogFileReaderTests {
  @Test func sniffsCSVAndJSON() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let json = dir.appendingPathComponent("catalog.csv")  // the name lies; content decides
    try Data(("\u{FEFF}  \n" + JSONCatalogReaderTests.portalDownload).utf8).write(to: json)
    let batch = try CatalogFileReader.read(json)
    #expect(batch.source == "catalog.csv")
    #expect(batch.records.count == 2)

    let sample = try CatalogFileReader.read(Fixtures.sampleCSV)
    #expect(sample.source == "seoul-cultural-events-2024-09-09.cp949.csv")
    #expect(sample.sourceTotal == 4_998)
    #expect(sample.records.first?.location?.description == "seoul-cultural-events-2024-09-09.cp949.csv:2")
  }

  @Test func unreadableFilesAreClearErrors() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let missing = dir.appendingPathComponent("nope.csv")
    #expect(throws: CatalogFileError.unreadable(path: missing.path, reason: "no such file")) {
      try CatalogFileReader.read(missing)
    }
    #expect(throws: CatalogFileError.unreadable(path: dir.path, reason: "it is a directory")) {
      try CatalogFileReader.read(dir)
    }
  }
}
