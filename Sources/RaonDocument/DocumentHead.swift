import RaonCore
import Foundation

/// Who sends the report: the office's department, the officer in charge and a telephone
/// number (`[document]` in `raon.toml`). Page 1 carries them beside the report's date, the
/// workbook's 요약 too, and a weekly message signs with them. Each part is optional: an
/// unset one is left out, never printed as a placeholder.
///
/// ```swift
/// let head = DocumentHead(department: "문화본부 문화정책과", officer: "주무관 홍길동", phone: "02-2133-0000")
/// head.officeLine(ReportLabels(.ko))   // "문화본부 문화정책과 · 담당 주무관 홍길동 (02-2133-0000)"
/// ```
public struct DocumentHead: Sendable, Equatable {
  /// `문화본부 문화정책과`.
  public var department: String?
  /// `주무관 홍길동`.
  public var officer: String?
  /// `02-2133-0000`.
  public var phone: String?

  /// Blank parts (empty, or spaces alone) are unset; the others are kept trimmed.
  public init(department: String? = nil, officer: String? = nil, phone: String? = nil) {
    self.department = Self.given(department)
    self.officer = Self.given(officer)
    self.phone = Self.given(phone)
  }

  /// Whether no part is set.
  public var isEmpty: Bool { department == nil && officer == nil && phone == nil }

  /// The office in one line, each set part once: `문화본부 문화정책과 · 담당 주무관 홍길동
  /// (02-2133-0000)`; `nil` when no part is set.
  public func officeLine(_ L: ReportLabels) -> String? {
    let lines = officeLines(L)
    return lines.isEmpty ? nil : lines.joined(separator: " · ")
  }

  /// The office as a signature's lines: the department, then the officer with the phone
  /// (or the phone alone).
  public func officeLines(_ L: ReportLabels) -> [String] {
    var lines: [String] = []
    if let department { lines.append(department) }
    switch (officer, phone) {
    case let (officer?, phone?): lines.append("\(L.officerInCharge(officer)) (\(phone))")
    case let (officer?, nil): lines.append(L.officerInCharge(officer))
    case let (nil, phone?): lines.append(L.phoneLine(phone))
    case (nil, nil): break
    }
    return lines
  }

  /// Stable text for a weekly run's keys: empty when no part is set (so a config without
  /// `[document]` keys its runs as before).
  public var key: String {
    isEmpty ? "" : [department, officer, phone].map { $0 ?? "" }.joined(separator: "\u{1F}")
  }

  private static func given(_ text: String?) -> String? {
    guard let text else { return nil }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }
}

extension ReportLabels {
  /// `보고일 2024. 9. 16.(월)` / `Reported Mon 16 Sep 2024`.
  public func reportedOn(_ day: CalendarDay) -> String {
    say("보고일 \(OfficialDates.day(day, .ko))", "Reported \(OfficialDates.day(day, .en))")
  }

  /// `담당 주무관 홍길동` (an officer already written with 담당 is kept as written) /
  /// `Contact: Hong Gil-dong`.
  public func officerInCharge(_ officer: String) -> String {
    if language == .ko { return officer.hasPrefix("담당") ? officer : "담당 \(officer)" }
    return officer.lowercased().hasPrefix("contact") ? officer : "Contact: \(officer)"
  }

  /// A telephone number without an officer: `연락처 02-2133-0000` / `Tel. 02-2133-0000`.
  public func phoneLine(_ phone: String) -> String { say("연락처 \(phone)", "Tel. \(phone)") }

  /// The line under a weekly message's signature, after the office's lines.
  public func automaticMailNote(replyTo address: String) -> String {
    say("매주 자동으로 발송되는 메일입니다. 문의: \(address)", "Sent automatically every week. Questions: \(address)")
  }
}
