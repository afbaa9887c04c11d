import RaonCore

/// Page 1's 붙임 as a Korean office writes them: the heading once, then one numbered item
/// per line, aligned under each other, each "… 1부.", and "끝." after the last:
///
/// ```
/// 붙임  1. 이번 주 운영 행사(자치구별) 1부(엑셀 파일 「이번 주 운영」 시트로 갈음).
///       2. 이번 주 시작·종료 1부.
///       3. 자료 정보 1부.  끝.
/// ```
///
/// An item the printed pages do not carry names, on paper, the file that stands in for it
/// (``Item/printText``); the screen, which shows every attachment, reads ``Item/text``.
/// English has no copy count and no closing mark ("Attachments: 1. … 2. …").
public struct AttachmentList: Sendable, Equatable {
  /// `붙임` / `Attachments`.
  public var heading: String
  public var items: [Item]
  /// `끝.` after the last item; `nil` in English.
  public var end: String?

  public init(heading: String, items: [Item], end: String?) {
    self.heading = heading
    self.items = items
    self.end = end
  }

  public struct Item: Sendable, Equatable {
    /// 1, 2, … as printed (`1.`).
    public var number: Int
    /// `이번 주 시작·종료 1부.`
    public var text: String
    /// What paper says instead, when the printed pages do not carry the item:
    /// `이번 주 운영 행사(자치구별) 1부(엑셀 파일 「이번 주 운영」 시트로 갈음).`
    public var printText: String?

    public init(number: Int, text: String, printText: String? = nil) {
      self.number = number
      self.text = text
      self.printText = printText
    }

    /// `1.`
    public var label: String { "\(number)." }
  }

  /// The lines as paper reads them, aligned (the heading's width of spaces before every
  /// item after the first; Korean counts two columns), `끝.` ending the last.
  public var printedLines: [String] {
    let indent = String(repeating: " ", count: DisplayWidth.of(heading) + 2)
    return items.enumerated().map { n, item in
      var line = (n == 0 ? heading + "  " : indent) + item.label + " " + (item.printText ?? item.text)
      if n == items.count - 1, let end { line += "  " + end }
      return line
    }
  }
}
