import RaonDocument
import Testing

/// The national report's definitions say what its figures count: 신규 등록 by 데이터기준일자
/// (the national data has no registration day), and no image among minor changes (it has
/// none); Seoul's definitions are as they were.
struct NationalDefinitionsTests {
  @Test(arguments: [ReportLanguage.ko, .en])
  func theNationalDefinitionsNameTheReferenceDayAndNoImage(_ language: ReportLanguage) {
    let national = ReportLabels(language, profile: .national)
    let text = (national.definitionLines + [national.minorChangesNote, national.registeredMeaning]).joined(separator: "\n")
    #expect(text.contains("데이터기준일자"), "\(text)")
    for seoul in ["신청일", "대표 이미지", "registration day", "the image"] {
      #expect(!text.contains(seoul), "\(seoul) in \(text)")
    }
    let seoul = ReportLabels(language)
    #expect(seoul.registeredMeaning == (language == .ko
      ? "신청일이 수집일을 포함한 최근 7일 안인 행사" : "registration day within the 7 days up to the collection day"))
    #expect(seoul.definitionLines.last?.contains(language == .ko ? "대표 이미지" : "the image") == true)
  }
}
