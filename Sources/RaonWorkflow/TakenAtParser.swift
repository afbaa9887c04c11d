import Foundation
import RaonCore

/// Parses `--taken-at`: full ISO 8601 with a zone (`2024-09-09T09:00:00+09:00`, `…Z`,
/// `+0900`), a local time without zone (read as Korea time), or a bare date (midnight in
/// Korea). Seconds and a fraction are optional; `T` or a space separates day and time.
///
/// Anything after the instant is refused (`2024-09-09 09:00 oops`), so is an offset
/// beyond ±14:00 (none exists), and — with ``parse(_:now:)`` — a time more than a day
/// after `now` (a typo in the year).
public enum TakenAtParser {
  /// Parses and checks `text` against the real clock.
  public static func parse(_ text: String) throws -> Date {
    try parse(text, now: Date())
  }

  /// Parses `text`; refuses a time more than one day after `now`.
  public static func parse(_ text: String, now: Date) throws -> Date {
    guard let date = instant(text) else { throw WorkflowError.invalidTakenAt(text) }
    if date.timeIntervalSince(now) > 86_400 {
      throw WorkflowError.takenAtInFuture(text: text, now: now.koreaDisplay)
    }
    return date
  }

  /// The instant `text` names, or `nil`.
  static func instant(_ text: String) -> Date? {
    let t = Array(text.trimmingCharacters(in: .whitespaces).utf8)
    var i = 0
    func digits(_ n: Int) -> Int? {
      guard i + n <= t.count else { return nil }
      var value = 0
      for k in i..<(i + n) {
        guard t[k] >= 0x30, t[k] <= 0x39 else { return nil }
        value = value * 10 + Int(t[k] - 0x30)
      }
      i += n
      return value
    }
    func take(_ c: Character) -> Bool {
      guard i < t.count, t[i] == c.asciiValue else { return false }
      i += 1
      return true
    }
    guard let year = digits(4), take("-"), let month = digits(2), take("-"), let day = digits(2),
      let calendarDay = CalendarDay(year: year, month: month, day: day)
    else { return nil }
    if i == t.count { return calendarDay.koreaMidnight }
    guard take("T") || take("t") || take(" ") else { return nil }
    guard let hour = digits(2), hour < 24, take(":"), let minute = digits(2), minute < 60 else {
      return nil
    }
    var seconds = 0.0
    if take(":") {
      guard let s = digits(2), s < 60 else { return nil }
      seconds = Double(s)
      if take(".") || take(",") {
        var scale = 0.1
        var any = false
        while i < t.count, t[i] >= 0x30, t[i] <= 0x39 {
          seconds += Double(t[i] - 0x30) * scale
          scale /= 10
          i += 1
          any = true
        }
        guard any else { return nil }
      }
    }
    // The zone: none (Korea), Z, or ±HH:MM / ±HHMM / ±HH within ±14:00.
    var offset = KoreaTime.timeZone.secondsFromGMT()
    if i < t.count {
      if take("Z") || take("z") {
        offset = 0
      } else {
        let sign: Int
        if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
        guard let hours = digits(2) else { return nil }
        var minutes = 0
        if take(":") {
          guard let m = digits(2) else { return nil }
          minutes = m
        } else if i < t.count {
          guard let m = digits(2) else { return nil }
          minutes = m
        }
        guard minutes < 60, hours * 60 + minutes <= 14 * 60 else { return nil }
        offset = sign * (hours * 3600 + minutes * 60)
      }
    }
    guard i == t.count else { return nil }
    let local = Double(calendarDay.dayNumber) * 86_400 + Double(hour * 3600 + minute * 60) + seconds
    return Date(timeIntervalSince1970: local - Double(offset))
  }

  /// The day in a file's name (`2024-09-16.csv`, `catalog_20240916.xlsx`) at midnight in
  /// Korea, for `--taken-at-from-name`: the last `YYYY-MM-DD` or `YYYYMMDD` that is a real
  /// day and not part of a longer number.
  public static func fromFileName(_ path: String) throws -> Date {
    let name = Array((path as NSString).lastPathComponent.utf8)
    func isDigit(_ k: Int) -> Bool { k >= 0 && k < name.count && name[k] >= 0x30 && name[k] <= 0x39 }
    func number(_ from: Int, _ n: Int) -> Int {
      (from..<(from + n)).reduce(0) { $0 * 10 + Int(name[$1] - 0x30) }
    }
    var found: CalendarDay?
    var k = 0
    while k < name.count {
      defer { k += 1 }
      guard isDigit(k), !isDigit(k - 1) else { continue }
      if (k..<(k + 4)).allSatisfy(isDigit), k + 9 < name.count, name[k + 4] == 0x2D,
        isDigit(k + 5), isDigit(k + 6), name[k + 7] == 0x2D, isDigit(k + 8), isDigit(k + 9),
        !isDigit(k + 10)
      {
        if let day = CalendarDay(year: number(k, 4), month: number(k + 5, 2), day: number(k + 8, 2)) {
          found = day
        }
      } else if (k..<(k + 8)).allSatisfy(isDigit), !isDigit(k + 8) {
        if let day = CalendarDay(year: number(k, 4), month: number(k + 4, 2), day: number(k + 6, 2)) {
          found = day
        }
      }
    }
    guard let found else { throw WorkflowError.noDateInFileName(path: path) }
    return found.koreaMidnight
  }
}

extension Date {
  /// `2024-09-08T15:00:00Z`: how Raon writes instants.
  public var iso8601UTC: String { ReportTime.iso8601UTC(self) }

  /// `2024-09-09 00:00 KST`: how Raon shows instants to people.
  public var koreaDisplay: String { ReportTime.korea(self) }
}
