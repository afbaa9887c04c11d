import RaonCore
import RaonDocument

/// Words only the workbook uses. Kept apart from `ReportLanguage.swift` so the XLSX
/// writer can grow without touching the shared labels; prefixed `xlsx` to avoid clashes.
extension ReportLabels {
  public var xlsxFreeValue: String { free }
  public var xlsxPaidValue: String { paid }
  public var xlsxSnapshotID: String { say("스냅숏 ID", "Snapshot ID") }
  public var xlsxHeadlines: String { headline }
  /// The one row of an empty week list.
  public var xlsxNoPrograms: String { say("해당 행사 없음", "None") }
  /// The one row of an empty quality table.
  public var xlsxNoFlags: String { say("표시된 항목 없음", "Nothing flagged") }
  /// Header of the trend table's first column: the week, by its Monday.
  public var xlsxTrendWeekStart: String { say("주 (월요일)", "Week of") }
  /// The week list of the programs removed since the compared collection: on paper, 변경
  /// 사항 prints only the changed fields.
  public var xlsxRemovedList: String { say("삭제된 행사", "Removed") }
  public var xlsxChangeCounts: String { say("변경 건수", "Changes") }
  /// Header of the changes sheet's first column (added/removed/changed).
  public var xlsxChangeKind: String { say("구분", "Change") }
  public var xlsxDescription: String { explanation }
  public var xlsxFrom: String { say("이전 자료", "Earlier collection") }
  public var xlsxTo: String { say("이후 자료", "Later collection") }
  public var xlsxCategoryDistrictCorner: String {
    say("\(groupWord.ko) \\ \(regionWord.ko)", "\(Self.capitalised(groupWord.en)) \\ \(regionWord.en)")
  }
  /// Header of the quality sheet's code column: the name `programs.csv` and JSON use.
  public var xlsxFlagCode: String { say("코드(CSV·JSON)", "Code (CSV, JSON)") }
  /// Heading of the examples under the quality table.
  public func xlsxQualityExamplesTitle(_ perFlag: Int) -> String {
    say("예시 (표시마다 처음 \(perFlag)건)", "Examples (the first \(perFlag) of each flag)")
  }
  public func xlsxChartTitle(_ table: String) -> String {
    say("\(table) 행사 수", "\(Self.capitalised(itemWord.enPlural)) \(table.lowercased())")
  }
  /// Warning when text was cut to Excel's cell limit.
  public func xlsxTruncatedWarning(_ count: Int, file: String) -> String {
    say(
      "\(file): 셀 \(count)개가 Excel 한도(32,767자)를 넘어 잘렸습니다. 전체 값은 CSV에 있습니다.",
      "\(file): \(count) cell(s) exceeded Excel's 32,767-character limit and were cut; the CSV has the full values."
    )
  }
  /// Warning when URLs had to be written as text.
  public func xlsxLinksAsTextWarning(_ count: Int, file: String) -> String {
    say(
      "\(file): 주소 \(count)개는 하이퍼링크 대신 텍스트로 썼습니다 (시트당 65,530개 한도 또는 2,079자 초과/웹 주소 아님).",
      "\(file): \(count) URL(s) written as text, not links (65,530 links per sheet, 2,079 characters, or not a web address)."
    )
  }
  /// Warning when the programs did not fit in one sheet.
  public func xlsxSplitWarning(_ sheets: Int, file: String, table: String) -> String {
    say(
      "\(file): '\(table)' 표가 Excel 행 한도(1,048,576행)를 넘어 시트 \(sheets)개로 나뉘었습니다.",
      "\(file): the '\(table)' table exceeds Excel's 1,048,576-row limit and continues over \(sheets) sheets."
    )
  }
}
