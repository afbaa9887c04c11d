import Foundation
import RaonAnalytics
import RaonCore
import RaonDocument

/// The CSV files of a national report (`raon report --catalog national`): named and headed
/// in the national data's words, since a person opens them in Excel. Headers are always
/// Korean (the national data's column names where it has them: 행사명, 장소, 제공기관명 …);
/// values stay as Seoul's files keep them (keys, flag codes, `true`/`false`, `added`).
/// docs/OUTPUT.md lists the files and their headers.
enum NationalCSVFiles {
  /// `events.csv`: the columns of an event (the national data has no image, portal page or
  /// 테마분류, so those of `programs.csv` are not there), with their headers.
  static let eventColumns: [(ProgramColumn, String)] = [
    (.id, "행사 키"), (.title, "행사명"), (.category, "제공기관명"), (.district, "시·도"), (.place, "장소"),
    (.startDate, "행사시작일자"), (.endDate, "행사종료일자"), (.eventTime, "행사시각"), (.durationDays, "기간(일)"),
    (.theme, "요금정보"), (.feeText, "관람요금"), (.isFree, "무료 여부"), (.feeMinKRW, "최저요금(원)"),
    (.feeMaxKRW, "최고요금(원)"), (.audience, "입장연령"), (.organizer, "주관기관명"), (.inquiry, "전화번호"),
    (.orgLink, "홈페이지주소"), (.latitude, "위도"), (.longitude, "경도"), (.registeredOn, "데이터기준일자"),
    (.qualityFlags, "품질 표시"),
  ]
  static let eventsFile = "events.csv"

  static func groupHeader(_ key: String) -> [String] {
    [key, "행사 수", "무료", "유료", "기간 중앙값(일)", "최저요금 중앙값(원)", "비율", "무료·유료 미상"]
  }

  /// `changes.csv`: Seoul's columns in the national data's words, the field's label in
  /// 항목 and its code (for scripts) last.
  static let changeHeader = [
    "구분", "행사 키", "행사명", "항목", "이전 값", "새 값", "제공기관명", "시·도", "행사시작일자", "행사종료일자",
    "변경 종류", "경미한 변경", "항목 코드",
  ]

  static func writeTables(_ report: ReportData, into csvDirectory: URL, options: ExportOptions,
    file: (String, (inout CSVFileWriter) throws -> Void) throws -> Void) throws
  {
    let t = report.tables
    let labels = options.labels
    try file("by_region.csv") { try CSVReportWriter.writeGroups(t.byDistrict, to: &$0, header: groupHeader("시·도")) }
    try file("by_provider.csv") { try CSVReportWriter.writeGroups(t.byCategory, to: &$0, header: groupHeader("제공기관명")) }
    try file("by_fee.csv") { w in
      try CSVReportWriter.writeBands(t.byFee, label: labels.feeBand(_:), to: &w, header: ["요금대 코드", "행사 수", "관람요금대"])
    }
    try file("by_duration.csv") { w in
      try CSVReportWriter.writeBands(t.byDuration, label: labels.durationBand(_:), to: &w, header: ["기간 코드", "행사 수", "기간"])
    }
    let ko = ReportLabels(.ko, catalog: .national)
    try file("by_fee_kind.csv") { w in
      try CSVReportWriter.writeBands(
        report.national?.byFeeKind ?? [], label: { NationalWords.feeKindName($0, ko) }, to: &w,
        header: ["요금정보 코드", "행사 수", "요금정보"])
    }
    try file("by_age.csv") { w in
      try CSVReportWriter.writeBands(
        report.national?.byAge ?? [], label: { NationalWords.ageName($0, ko) }, to: &w,
        header: ["입장연령 코드", "행사 수", "입장연령"])
    }
    try file("provider_by_region.csv") { w in
      try CSVReportWriter.writeCross(
        t.categoryByDistrict, to: &w, header: ["제공기관명"] + t.categoryByDistrict.columnKeys + ["합계"])
    }
    try file("changes.csv") { w in
      try CSVReportWriter.writeChanges(report.changes, day: report.snapshot.koreaDay, to: &w, header: changeHeader, national: true)
    }
  }

  static func writeRows(_ chunk: [Program], to w: inout CSVFileWriter) throws {
    for p in chunk {
      for (column, _) in eventColumns { CSVReportWriter.write(column.cell(of: p), to: &w) }
      try w.endRow()
    }
  }
}
