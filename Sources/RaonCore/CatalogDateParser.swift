/// Reads the catalog's dates as calendar days in Korea.
///
/// ```swift
/// CatalogDateParser.day(from: "2025-12-18 00:00:00.0")   // 2025-12-18
/// CatalogDateParser.day(from: "2025.12.18")              // 2025-12-18
/// CatalogDateParser.day(from: "20251218")                // 2025-12-18
/// CatalogDateParser.day(from: "1734793200000")           // 2024-12-22 (Unix ms, in Korea)
/// CatalogDateParser.day(from: "00:00.0")                 // nil (destroyed by a spreadsheet)
/// CatalogDateParser.range(from: "2024-12-22 ~ 2025-01-05")  // 2024-12-22 … 2025-01-05
/// ```
public enum CatalogDateParser {
  /// The day a date field (시작일, 종료일, 신청일, STRTDATE, …) names, or `nil`.
  ///
  /// Accepts `YYYY-MM-DD`, `YYYY.MM.DD`, `YYYY/MM/DD` (one- or two-digit month and day,
  /// spaces after the separators allowed), `YYYY년 MM월 DD일` and `YYYYMMDD`, each with
  /// anything after it that does not continue the number (a time, `T…`, a final `.`);
  /// and Unix milliseconds as the JSON download writes them (`1734793200000`, possibly
  /// negative or with a fraction), turned into the day in Korea (UTC+9).
  ///
  /// A plain number below one day's milliseconds in size (`0`, `45648`) is not read: it is
  /// far more likely a spreadsheet's serial day or a placeholder than an instant in the
  /// first day of 1970.
  public static func day(from text: String) -> CalendarDay? {
    let trimmed = CatalogText.trimmed(text)
    if trimmed.isEmpty { return nil }
    return UTF8Scanning.withBytes(trimmed) { bytes in
      if let found = DateScanner(bytes: bytes).date(at: 0) { return found.day }
      return DateScanner(bytes: bytes).unixMilliseconds()
    }
  }

  /// The first and last day of a 날짜/시간 (DATE) text, or `nil` when it names no date.
  ///
  /// Reads `2024-12-22~2024-12-22`, `2024-12-22 ~ 2025-01-05`, ranges with times
  /// (`2024-12-22 19:30~2024-12-22 21:00`), an end without its year
  /// (`2024-12-22~12-25`, taken in the start's year) and a single date (start = end).
  public static func range(from text: String) -> (start: CalendarDay, end: CalendarDay)? {
    if text.isEmpty { return nil }
    return UTF8Scanning.withBytes(text) { bytes in
      let scanner = DateScanner(bytes: bytes)
      guard let first = scanner.firstDate(from: 0) else { return nil }
      if let second = scanner.firstDate(from: first.end) {
        return (first.day, second.day)
      }
      if let partial = scanner.monthDayAfterSeparator(from: first.end, year: first.day.year) {
        return (first.day, partial)
      }
      return (first.day, first.day)
    }
  }
}

// MARK: - Scanner

private struct DateScanner {
  let bytes: UnsafeBufferPointer<UInt8>

  /// Days since 1970-01-01 of 0001-01-01 and 9999-12-31, the range `CalendarDay` names.
  static let firstDayNumber = CalendarDay.daysFromCivil(year: 1, month: 1, day: 1)
  static let lastDayNumber = CalendarDay.daysFromCivil(year: 9999, month: 12, day: 31)

  /// Reads a run of 1...`maxDigits` digits at `i`; `nil` when there are none or more.
  private func digits(at i: Int, max maxDigits: Int) -> (value: Int, end: Int)? {
    var j = i
    var value = 0
    while j < bytes.count, UTF8Scanning.isDigit(bytes[j]) {
      if j - i == maxDigits { return nil }
      value = value * 10 + Int(bytes[j] &- 0x30)
      j += 1
    }
    return j == i ? nil : (value, j)
  }

  private enum Separator: Equatable { case dash, dot, slash, korean }

  /// The separator after a year or month at `i`, and where the next number starts.
  private func separator(at i: Int, after unit: StaticBytes) -> (Separator, Int)? {
    guard i < bytes.count else { return nil }
    let b = bytes[i]
    let kind: Separator
    var j = i + 1
    switch b {
    case UInt8(ascii: "-"): kind = .dash
    case UInt8(ascii: "."): kind = .dot
    case UInt8(ascii: "/"): kind = .slash
    default:
      guard UTF8Scanning.matches(bytes, at: i, unit) else { return nil }
      kind = .korean
      j = i + 3
    }
    return (kind, UTF8Scanning.skipSpaces(bytes, from: j))
  }

  /// A full date starting exactly at `i`.
  func date(at i: Int) -> (day: CalendarDay, end: Int)? {
    guard let year = digits(at: i, max: 8) else { return nil }
    if year.end - i == 8 {
      // YYYYMMDD
      let v = year.value
      guard let day = CalendarDay(year: v / 10_000, month: v / 100 % 100, day: v % 100) else {
        return nil
      }
      return (day, year.end)
    }
    guard year.end - i == 4 else { return nil }
    let afterYear = UTF8Scanning.skipSpaces(bytes, from: year.end)
    guard let (sep1, monthStart) = separator(at: afterYear, after: Glyph.year),
      let month = digits(at: monthStart, max: 2)
    else { return nil }
    let afterMonth = UTF8Scanning.skipSpaces(bytes, from: month.end)
    guard let (sep2, dayStart) = separator(at: afterMonth, after: Glyph.month), sep2 == sep1,
      let dayOfMonth = digits(at: dayStart, max: 2),
      let day = CalendarDay(year: year.value, month: month.value, day: dayOfMonth.value)
    else { return nil }
    var end = dayOfMonth.end
    if sep1 == .korean, UTF8Scanning.matches(bytes, at: end, Glyph.day) { end += 3 }
    return (day, end)
  }

  /// The first full date at or after `start` that does not begin inside a longer number.
  func firstDate(from start: Int) -> (day: CalendarDay, end: Int)? {
    var i = start
    while i < bytes.count {
      if UTF8Scanning.isDigit(bytes[i]) {
        if (i == 0 || !UTF8Scanning.isDigit(bytes[i - 1])), let found = date(at: i) {
          return found
        }
        // Skip the rest of this run of digits.
        while i < bytes.count, UTF8Scanning.isDigit(bytes[i]) { i += 1 }
      } else {
        i += 1
      }
    }
    return nil
  }

  /// `~ 12-25` after a full date: an end date written without its year.
  func monthDayAfterSeparator(from start: Int, year: Int) -> CalendarDay? {
    // Only a time may stand between the start date and the `~`.
    var i = start
    while i < bytes.count, bytes[i] != UInt8(ascii: "~") {
      let b = bytes[i]
      guard UTF8Scanning.isDigit(b) || b == UInt8(ascii: ":") || b == 0x20 else { return nil }
      i += 1
    }
    guard i < bytes.count else { return nil }
    i = UTF8Scanning.skipSpaces(bytes, from: i + 1)
    guard let month = digits(at: i, max: 2),
      let (_, dayStart) = separator(at: month.end, after: Glyph.month),
      let dayOfMonth = digits(at: dayStart, max: 2)
    else { return nil }
    return CalendarDay(year: year, month: month.value, day: dayOfMonth.value)
  }

  /// The Korean day of a Unix-milliseconds text, or `nil` when the text is not a number.
  func unixMilliseconds() -> CalendarDay? {
    var i = 0
    var negative = false
    if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
      negative = bytes[i] == UInt8(ascii: "-")
      i += 1
    }
    let digitsStart = i
    var integer = 0
    while i < bytes.count, UTF8Scanning.isDigit(bytes[i]) {
      let (m, o1) = integer.multipliedReportingOverflow(by: 10)
      let (s, o2) = m.addingReportingOverflow(Int(bytes[i] &- 0x30))
      if o1 || o2 { return nil }
      integer = s
      i += 1
    }
    guard i > digitsStart else { return nil }
    var hasFraction = false
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      while i < bytes.count, UTF8Scanning.isDigit(bytes[i]) {
        if bytes[i] != UInt8(ascii: "0") { hasFraction = true }
        i += 1
      }
    }
    if i < bytes.count {
      // `1.7347932E12`: a writer that printed the number as a Double.
      guard bytes[i] | 0x20 == UInt8(ascii: "e") else { return nil }
      return unixMillisecondsViaDouble()
    }
    // Whole milliseconds, rounded down (towards the past, also for negative instants).
    var ms = negative ? -integer : integer
    if negative && hasFraction { ms -= 1 }
    return Self.koreaDay(unixMilliseconds: ms)
  }

  private func unixMillisecondsViaDouble() -> CalendarDay? {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let value = Double(text), value.isFinite, abs(value) < 1e15 else { return nil }
    return Self.koreaDay(unixMilliseconds: Int(value.rounded(.down)))
  }

  static func koreaDay(unixMilliseconds ms: Int) -> CalendarDay? {
    let dayMs = 86_400_000
    guard ms.magnitude >= UInt(dayMs), ms.magnitude < 1_000_000_000_000_000 else { return nil }
    let shifted = ms + KoreaTime.offsetSeconds * 1000
    let dayNumber = shifted >= 0 ? shifted / dayMs : -((-shifted + dayMs - 1) / dayMs)
    guard dayNumber >= firstDayNumber, dayNumber <= lastDayNumber else { return nil }
    return CalendarDay(dayNumber: dayNumber)
  }
}
