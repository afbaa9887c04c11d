import Foundation
import RaonAnalytics
import RaonCore

/// The words of the document an official signs (page 1 and its attachments): the one
/// glossary every section and format uses. Developer terms — snapshot ids, ISO week codes,
/// source file names — appear only in the closing "자료 정보" block.
extension ReportLabels {
  // MARK: - Page 1

  /// `서울시 문화행사 주간 현황`, or for a pack as its office writes it: `종로구 문화행사
  /// 주간 현황` (`Jongno-gu cultural events — weekly status`).
  public func documentTitle(district: String?) -> String {
    guard let district else { return reportTitle }
    return say("\(district) \(words.subject.ko) 주간 현황", "\(district) \(words.subject.en) — weekly status")
  }
  /// `2025. 8. 18.(월) 09:00 수집 기준`.
  public func dataAsOf(_ instant: String) -> String { say("\(instant) 수집 기준", "data as of \(instant)") }
  public var weeklySummary: String { say("□ 주간 요약", "Summary") }
  public var keyFigures: String { say("□ 주요 지표", "Key figures") }
  /// The headline table's units: `(단위: 건, %)` / `(programs, %)`.
  public var figuresUnit: String { say("(단위: 건, %)", "(\(words.item.enPlural), %)") }
  public func runningChartHeading(_ dimension: String) -> String {
    say("□ \(dimension) 이번 주 운영", "Running this week, \(dimension.lowercased())")
  }
  public var attachmentsHeading: String { say("붙임", "Attachments") }
  /// One item of page 1's 붙임, as an office writes it: `이번 주 시작·종료 1부.` (English
  /// names the attachment alone: no copy count).
  public func attachmentItem(_ title: String) -> String { say("\(title) 1부.", title) }
  /// An item that paper does not carry, naming the workbook's sheet that stands in for it:
  /// `이번 주 운영 행사(자치구별) 1부(엑셀 파일 「이번 주 운영」 시트로 갈음).`
  public func attachmentItemInWorkbook(_ title: String, sheet: String) -> String {
    say("\(title) 1부(엑셀 파일 「\(sheet)」 시트로 갈음).", "\(title) (the workbook's “\(sheet)” sheet)")
  }
  /// `끝.` after the last 붙임, as a Korean public document closes; English has no such mark.
  public var attachmentsEnd: String? { language == .ko ? "끝." : nil }
  /// A page-1 sentence without its pointer into the attachments (`…바뀌었습니다(붙임 4).` →
  /// `…바뀌었습니다.`): for a message, whose 붙임 are the files it carries.
  public func withoutAttachmentReference(_ sentence: String) -> String {
    var s = sentence
    for n in 1...12 {
      s = s.replacingOccurrences(of: "(붙임 \(n))", with: "").replacingOccurrences(of: " (attachment \(n))", with: "")
    }
    return s
  }
  /// `붙임 3. 신규 등록`.
  public func attachment(_ n: Int, _ title: String) -> String {
    say("붙임 \(n). \(title)", "Attachment \(n). \(title)")
  }
  public var sourceLine: String { say(words.sourceLine) }
  public var item: String { say("구분", "Figure") }
  public var lastWeek: String { say("전주", "Last week") }
  public var freeShareOfRunning: String { say("무료 비율(이번 주 운영)", "Free share (running)") }

  // MARK: - Attachments
  public var runningListTitle: String { say("이번 주 운영 행사", "\(Self.capitalised(itemWord.enPlural)) running this week") }
  public var runningListByDistrict: String {
    say("이번 주 운영 행사(\(regionWord.ko)별)", "\(Self.capitalised(itemWord.enPlural)) running this week, by \(regionWord.en)")
  }
  public var startingAndEnding: String { say("이번 주 시작·종료", "Starting and ending this week") }
  public var registeredAndAdded: String { registeredThisWeek }
  public var addedSinceLast: String { say("지난 수집 이후 추가", "Added since the last collection") }
  public var registeredSameAsAdded: String {
    say(
      "이번 주 신규 등록 행사는 지난 수집 이후 새로 추가된 행사와 같습니다.",
      "The \(itemWord.enPlural) registered this week are the \(itemWord.enPlural) added since the last collection.")
  }
  /// Printed in place of the city's running list when the workbook goes with the pages:
  /// the sheet that stands in for it, in words, never a file name.
  public func runningListPrintNote(_ n: Int) -> String {
    say(
      "이번 주 운영 행사 \(n.formatted())건의 \(regionWord.ko)별 목록은 엑셀 파일 「\(runningThisWeek)」 시트로 갈음합니다.",
      "The list of \(n == 1 ? "the 1 \(itemWord.en)" : "the \(n.formatted()) \(itemWord.enPlural)") running this week, by \(regionWord.en), is not printed: it is the workbook's “\(runningThisWeek)” sheet.")
  }
  public var statusTables: String {
    say("운영 현황(\(regionWord.ko)별·\(groupWord.ko)별)", "What is on, by \(regionWord.en) and \(groupWord.en)")
  }
  /// A pack's 붙임 5, which holds its categories only.
  public var statusTablesByCategory: String { say("운영 현황(\(groupWord.ko)별)", "What is on, by \(groupWord.en)") }
  public var wholeCatalogTitle: String { say("전체 카탈로그 통계", "Whole-catalog statistics") }
  public var dataInformation: String { say("자료 정보", "About the data") }
  public var noRunningThisWeek: String {
    say("이번 주 운영 중인 행사가 없습니다.", "No \(itemWord.en) runs this week.")
  }
  /// Said instead of a chart of one bar: `이번 주 운영 행사는 모두 교육/체험(2건)입니다.`
  public func allRunningIn(_ key: String, _ n: Int) -> String {
    say(
      "이번 주 운영 행사는 모두 \(key)(\(n.formatted())건)입니다.",
      n == 1
        ? "The 1 \(itemWord.en) running this week is in \(key)."
        : n == 2
          ? "Both \(itemWord.enPlural) running this week are in \(key)."
          : "All \(n.formatted()) \(itemWord.enPlural) running this week are in \(key).")
  }
  /// How regions and groups are counted: `5개 구`, `5 districts`.
  public var districtUnit: String { say(words.regionCounter, regionWord.enPlural) }
  public var categoryUnit: String { say(words.groupCounter, groupWord.enPlural) }

  // MARK: - Changes
  public var changesSinceLast: String { changes }
  public var withdrawnTitle: String { say("철회(종료일 전 삭제)", "Withdrawn (removed before their end)") }
  public var materialTitle: String { say("내용 변경", "Changed") }
  public var endedTitle: String { say("종료로 삭제", "Removed after ending") }
  public func addedShownAbove(_ n: Int, attachment: Int) -> String {
    say(
      "새로 추가된 행사 \(n.formatted())건은 붙임 \(attachment)에 있습니다.",
      n == 1
        ? "The 1 \(itemWord.en) added is listed in attachment \(attachment)."
        : "The \(n.formatted()) \(itemWord.enPlural) added are listed in attachment \(attachment).")
  }
  public func changeCountsLine(added: Int, ended: Int, withdrawn: Int, material: Int, minor: Int) -> String {
    [
      (self.added, added), (removedEnded, ended), (removedWithdrawn, withdrawn), (changedMaterial, material),
      (changedMinor, minor),
    ].map { "\($0.0) \(countText($0.1))" }.joined(separator: " · ")
  }
  public var minorChangesNote: String {
    say(
      "경미한 변경(\(minorKinds.ko), 띄어쓰기만 다른 글자)은 건수만 적었으며, 전체 내역은 엑셀 통합 문서의 「\(changes)」 시트에 있습니다.",
      "Minor changes (\(minorKinds.en), text differing only in spacing) are counted only; every change is on the workbook's changes sheet.")
  }

  /// What counts as a minor change besides spacing, in the catalog's words.
  var minorKinds: CatalogWords.Phrase {
    CatalogWords.Phrase(
      words.minorChanges.map(\.ko).joined(separator: ", "), words.minorChanges.map(\.en).joined(separator: ", "))
  }

  // MARK: - About the data
  public var thisCollection: String { say("이번 자료", "This collection") }
  public var comparedCollection: String { say("비교 자료", "Compared with") }
  public var reportWeek: String { say("보고 주간", "Week") }
  public var definitions: String { say("용어", "Definitions") }
  /// The glossary: one definition per state and change kind, the words every page, the
  /// trend, the workbook, `raon diff` and the site use.
  public var definitionLines: [String] {
    [
      say("운영 중·예정: 종료일이 없거나 이번 주 월요일 이후에 끝나는 행사", "Current: no end day, or ending on or after this week's Monday"),
      say("이번 주 운영: 이번 주 일요일까지 시작하고 월요일 이후에 끝나는 행사", "Running this week: starts by Sunday and ends on or after Monday"),
      say("이번 주 시작·종료: 시작일·종료일이 이번 주(월~일)인 행사", "Starting/ending: start/end day within the week (Mon–Sun)"),
      say("신규 등록: \(registeredMeaning)", "Newly registered: \(registeredMeaning)"),
      say("추가: 지난 수집에 없고 이번 수집에 있는 행사", "Added: in this collection, not in the last"),
      say("삭제: 지난 수집에 있고 이번 수집에 없는 행사(종료로 삭제와 철회를 합친 수)", "Removed: in the last collection, not in this one (removed after ending and withdrawn together)"),
      say("종료로 삭제: 종료일이 지난 뒤 목록에서 사라진 행사", "Removed after ending: gone from the catalog after its end day"),
      say("철회: 종료일이 지나기 전에 목록에서 사라진 행사", "Withdrawn: gone from the catalog before its end day"),
      say("내용 변경: 제목·장소·기간·요금 등 내용이 바뀐 행사", "Changed: title, place, dates, fee or other content changed"),
      say(
        "경미한 변경: \(minorKinds.ko), 띄어쓰기만 다른 글자",
        "Minor change: \(minorKinds.en), or text differing only in spacing"),
    ]
  }
}
