import Foundation
import RaonCore
import Testing
import TestSupport

@testable import RaonIngest

@Suite struct CSVCatalogReaderTests {
  // MARK: - The real sample

  @Test func sampleGivesEveryProgramWithAllFields() throws {
    let batch = try CSVCatalogReader.read(
      Data(contentsOf: Fixtures.sampleCSV), source: "sample.csv")
    // Python: len(list(csv.reader(...))) - 1 == 4998, every row has 22 fields.
    #expect(batch.records.count == 4_998)
    #expect(batch.sourceTotal == 4_998)
    #expect(batch.source == "sample.csv")
    #expect(batch.records.allSatisfy { $0.names.names.count == 22 && $0.values.count == 22 })
    #expect(batch.records.allSatisfy { !$0.names.names.contains { $0.hasPrefix("_extra_") } })
    let names = try #require(batch.records.first?.names)
    #expect(names.fields.count == 22)  // every column resolved to a canonical field
    #expect(names.names[11] == "홈페이지?주소")
    // The first record starts on line 2, the last on line 4999 (no value spans lines).
    #expect(batch.records.first?.location == SourceLocation(source: "sample.csv", line: 2))
    #expect(batch.records.last?.location == SourceLocation(source: "sample.csv", line: 4_999))
  }

  @Test func sampleFlagsExactlyTheRecordWithTheInvalidByte() throws {
    let batch = try CSVCatalogReader.read(
      Data(contentsOf: Fixtures.sampleCSV), source: "sample.csv")
    let flagged = batch.records.filter(\.invalidBytesReplaced)
    #expect(flagged.count == 1)
    let record = try #require(flagged.first)
    // Python: the only row containing "\ufffd" starts on line 2629.
    #expect(record.location?.line == 2_629)
    #expect(record[.title] == "[서울책보고] 인문학강연: 감정도 디자인이 될까요?_당신, 오늘 마음은 어땠나요?")
    #expect(
      record[.orgLink]
        == "https://www.seoulbookbogo.kr/front/index.php?g_page=event&m_page=event01&Year=2024&Month=04\u{FFFD}&act=View&D_IDX=4303&ViewType=List"
    )
  }

  @Test func sampleValuesMatchPythonsCSVModule() throws {
    let batch = try CSVCatalogReader.read(
      Data(contentsOf: Fixtures.sampleCSV), source: "sample.csv")
    // Python: rows[0] of csv.reader over the decoded text (the record on line 2).
    let expected: [String?] = [
      "클래식", "강남구", "2024 파리나무십자가 소년합창단 특별초청공연", "2024-12-22~2024-12-22",
      "예술의전당 콘서트홀", "기타", "초등학생이상 관람가",
      "R석 11만원 /S석 9만원 /A석 7만원 /B석 5만원 /C석 4만원", "파리나무십자가소년합창단", "하나되는 세상",
      "대한민국공연전문가82인선정 연말클래식추천공연1위 ", "https://tickets.interpark.com/goods/24012229",
      "https://culture.seoul.go.kr/cmmn/file/getImage.do?atchFileId=ac5397b05f9b4b068acc32ccd76b15c9&thumb=Y",
      "2024-08-29", "시민", "2024-12-22 00:00:00.0", "2024-12-22 00:00:00.0", "기타",
      "37.4802401962069", "127.014215239186", "유료",
      "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=149289&menuNo=200008",
    ]
    #expect(batch.records.first?.values == expected)
    // Python: the record on line 3, field 7 (이용요금), a quoted value with commas.
    #expect(
      batch.records[1][.feeText]
        == "SUITE석 140,000원 / VIP석 120,000원 / R석 100,000원 / S석 80,000원 / A석 50,000원 / B석 30,000원"
    )
    // Python: the last row's title and portal URL.
    #expect(batch.records.last?[.title] == "해설이 있는 피아노 교수음악회 [쇼팽과 함께]")
    #expect(
      batch.records.last?[.portalURL]
        == "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=142379&menuNo=200008"
    )
    // Python: Counter(r[20]) == {"무료": 3197, "유료": 1801}
    #expect(batch.records.filter { $0[.isFree] == "무료" }.count == 3_197)
    #expect(batch.records.filter { $0[.isFree] == "유료" }.count == 1_801)
  }

  @Test func sampleHasOneDistinctCultcodePerRecord() throws {
    let batch = try CSVCatalogReader.read(
      Data(contentsOf: Fixtures.sampleCSV), source: "sample.csv")
    let ids = batch.records.compactMap { $0[.portalURL].flatMap(ProgramID.fromPortalURL) }
    #expect(ids.count == 4_998)
    #expect(Set(ids).count == 4_998)
  }

  // MARK: - RFC 4180 details

  /// Python's csv module on the same text gives (start line: fields):
  /// 2: ['클래식', '강남구', 'A, B "C"', '장소\r\n2층', '무료', 'x']
  /// 5: ['연극', '종로구', 'x', 'y', '유료']
  /// 6: ['연극', '종로구', 't', 'p', '유료', 'n', 'extra1', 'extra2']
  /// 7: ['전시', '중구', '멀티\n라인', 'p', '무료', '']   (line 4 is blank)
  static let tricky =
    "분류,자치구,공연/행사명,장소,유무료,비고\r\n\"클래식\",\"강남구\",\"A, B \"\"C\"\"\",\"장소\r\n2층\",무료,x\r\n"
    + "\r\n연극,종로구,\"x\",y,유료\n연극,종로구,t,p,유료,n,extra1,extra2\n"
    + "\"전시\",\"중구\",\"멀티\n라인\",\"p\",\"무료\",\"\""

  @Test func quotedCommasQuotesAndLineBreaksArePreserved() throws {
    let batch = try CSVCatalogReader.read(Data(Self.tricky.utf8), source: "t.csv")
    #expect(batch.records.count == 4)
    #expect(batch.records.map { $0.location?.line } == [2, 5, 6, 7])
    #expect(batch.records[0].values == ["클래식", "강남구", "A, B \"C\"", "장소\r\n2층", "무료", "x"])
    #expect(batch.records[3].values == ["전시", "중구", "멀티\n라인", "p", "무료", ""])
    // The unknown column 비고 is kept.
    #expect(batch.records[0][name: "비고"] == "x")
  }

  @Test func shortRowsArePaddedAndLongRowsKeepExtras() throws {
    let batch = try CSVCatalogReader.read(Data(Self.tricky.utf8), source: "t.csv")
    #expect(batch.records[1].values == ["연극", "종로구", "x", "y", "유료", ""])
    let long = batch.records[2]
    #expect(long.names.names == ["분류", "자치구", "공연/행사명", "장소", "유무료", "비고", "_extra_1", "_extra_2"])
    #expect(long.values == ["연극", "종로구", "t", "p", "유료", "n", "extra1", "extra2"])
  }

  @Test func columnsMayComeInAnyOrder() throws {
    let text = "유무료,장소,비고,공연/행사명,자치구,분류\n무료,P,,T,중구,전시\n"
    let batch = try CSVCatalogReader.read(Data(text.utf8), source: "o.csv")
    let record = try #require(batch.records.first)
    #expect(record[.category] == "전시")
    #expect(record[.district] == "중구")
    #expect(record[.title] == "T")
    #expect(record[.place] == "P")
    #expect(record[.isFree] == "무료")
  }

  @Test func missingColumnsAreNamedInKorean() throws {
    let text = "분류,공연/행사명,장소\n전시,T,P\n"
    #expect {
      try CSVCatalogReader.read(Data(text.utf8), source: "m.csv")
    } throws: { error in
      guard let error = error as? CSVCatalogError,
        case .missingColumns(let source, let missing, _) = error
      else { return false }
      let message = error.description
      // 유무료 is not required: catalogs before 2024 lack it (issue 17).
      return source == "m.csv" && missing == ["자치구"]
        && message.contains("m.csv") && message.contains("lacks the column(s) 자치구 ")
        && !message.contains("\n")
    }
  }

  @Test func unterminatedQuoteNamesTheLineWhereTheFieldBegan() throws {
    let text = "분류,자치구,공연/행사명,장소,유무료\n전시,중구,T,P,무료\n전시,중구,\"never\nclosed,P,무료\n"
    #expect {
      try CSVCatalogReader.read(Data(text.utf8), source: "q.csv")
    } throws: { error in
      guard let error = error as? CSVCatalogError,
        case .unterminatedQuote(let source, let line, let field) = error
      else { return false }
      return source == "q.csv" && line == 3 && field == "공연/행사명"
        && error.description.hasPrefix("q.csv:3:")
    }
  }

  @Test func emptyFileIsAClearError() throws {
    #expect(throws: CSVCatalogError.noHeader(source: "e.csv")) {
      try CSVCatalogReader.read(Data("\n\n".utf8), source: "e.csv")
    }
  }

  @Test func garbageBytesNeverCrash() {
    var generator = SplitMix64(seed: 7)
    let header = Array("분류,자치구,공연/행사명,장소,유무료\n".utf8)
    for length in [0, 1, 5, 100, 10_000, 100_000] {
      let noise = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      for bytes in [noise, header + noise] {
        // Either records or a typed error; never a crash, never an untyped failure.
        do {
          let batch = try CSVCatalogReader.read(Data(bytes), source: "g.csv")
          #expect(batch.records.allSatisfy { $0.values.count == $0.names.names.count })
        } catch {
          #expect(error is CSVCatalogError || error is TextDecodingError)
        }
      }
    }
  }
}
