import RaonCore
import RaonDocument
import Testing

/// Words an editor used to fix by hand before forwarding (issue 47): a pack's title as its
/// office writes it, the headline table's units, the fee column in one language, English
/// headings without the Korean □.
struct OfficialWordsTests {
  @Test func aPacksTitleIsTheOfficesOwn() {
    #expect(ReportLabels(.ko).documentTitle(district: "종로구") == "종로구 문화행사 주간 현황")
    #expect(ReportLabels(.ko).documentTitle(district: nil) == "서울시 문화행사 주간 현황")
    #expect(ReportLabels(.en).documentTitle(district: "Jongno-gu") == "Jongno-gu cultural events — weekly status")
    #expect(ReportLabels(.ko, profile: .national).documentTitle(district: "경기도") == "경기도 공연·행사 주간 현황")
    #expect(ReportLabels(.ko, profile: DocumentFixtures.third).documentTitle(district: "동부권") == "동부권 공연 주간 현황")
  }

  @Test func theHeadlineTableStatesItsUnits() {
    #expect(ReportLabels(.ko).figuresUnit == "(단위: 건, %)")
    #expect(ReportLabels(.en).figuresUnit == "(programs, %)")
    #expect(ReportLabels(.en, profile: .national).figuresUnit == "(events, %)")
  }

  @Test func theFeeColumnSpeaksTheDocumentsLanguage() {
    func fee(_ text: String, free: Bool?, _ language: ReportLanguage) -> String {
      ProgramTable.feeText(Program(id: "cult:1", title: "t", feeText: text, isFree: free), ReportLabels(language))
    }
    #expect(fee("무료", free: true, .en) == "Free")
    #expect(fee(" 무 료 ", free: true, .en) == "Free")
    #expect(fee("유료", free: false, .en) == "Paid")
    #expect(fee("", free: true, .en) == "Free")
    #expect(fee("", free: false, .en) == "")
    #expect(fee("전석 5,000원", free: false, .en) == "전석 5,000원")  // the catalog's own text
    #expect(fee("무료", free: true, .ko) == "무료")
    #expect(fee("", free: true, .ko) == "무료")
    #expect(fee(" 전석 5,000원 ", free: false, .ko) == "전석 5,000원")
  }

  @Test func englishHeadingsCarryNoKoreanBox() {
    let en = ReportLabels(.en), ko = ReportLabels(.ko)
    for heading in [en.weeklySummary, en.keyFigures, en.runningChartHeading("By district")] {
      #expect(!heading.contains("□"), "\(heading)")
    }
    for heading in [ko.weeklySummary, ko.keyFigures, ko.runningChartHeading("자치구별")] {
      #expect(heading.hasPrefix("□ "), "\(heading)")
    }
  }
}

/// A change of quality flags reads as the flags' names wherever people read it (the
/// workbook's 변경 사항 printed `district_missing;fee_without_amount`); CSV/JSON keep codes.
struct ChangedFlagValueTests {
  @Test func flagsReadAsTheirNames() {
    let ko = ReportLabels(.ko), en = ReportLabels(.en)
    #expect(ko.fieldValue("quality_flags", "district_missing;fee_without_amount") == "자치구 없음, 요금 금액 없음")
    #expect(en.fieldValue("quality_flags", "end_date_implausible") == "Implausible end date")
    #expect(ko.fieldValue("quality_flags", "") == "")
    #expect(ko.fieldValue("fee_text", "district_missing") == "district_missing")
  }
}
