/// The lowest and highest amount in won that a fee text quotes.
public struct FeeRange: Sendable, Hashable, CustomStringConvertible {
  public var min: Int
  public var max: Int

  public var description: String { "\(min)…\(max)" }
}

/// Reads amounts in won from the catalog's free-text fee field (이용요금).
///
/// A number is an amount only when a won unit goes with it, so years (`2024년`), ages
/// (`7세`), head counts (`1인`) and session counts (`3회`) are never taken for prices:
///
/// ```swift
/// FeeParser.range(in: "전석 20,000원")                        // 20000…20000
/// FeeParser.range(in: "R석 11만원 /S석 9만원 /A석 7만원")       // 70000…110000
/// FeeParser.range(in: "1만5천원")                             // 15000…15000
/// FeeParser.range(in: "10,000~30,000원")                      // 10000…30000
/// FeeParser.range(in: "1~3만원")                              // 10000…30000
/// FeeParser.range(in: "전석 초대")                             // nil
/// ```
///
/// Accepted amounts: `20,000원`, `20000 원`, `11만원`, `11만 원`, `1.5만원`, `1만5천원`,
/// `1만 5천원`, `1만5000원`, `5천원`, `20,000 KRW`, `₩20,000`, `￦20,000`, and `20.000원`
/// (a full stop used as a thousands separator, recognised when exactly three digits follow
/// it). In a range (`~`, `～`, `〜`, `-`, `–`) the unit of the right side also applies to a
/// bare left side. `천` counts only after a single digit (`5천원`), as Korean writes it;
/// `3000천원` is a typo whose meaning is unclear, so it is not read. An amount that does not
/// fit in `Int` is ignored rather than allowed to trap.
public enum FeeParser {
  /// The lowest and highest amount quoted, or `nil` when the text quotes none.
  public static func range(in text: String) -> FeeRange? {
    if text.isEmpty { return nil }
    return UTF8Scanning.withBytes(text) { bytes in
      var scanner = FeeScanner(bytes: bytes)
      return scanner.scan()
    }
  }

  /// Whether a fee text is written yet names no fee: words with no amount and no `무료`
  /// (`홈페이지 참조`, `회차별 상이`). Empty text, or marks alone (`-`), say nothing and are not
  /// counted; `amounts` is what ``range(in:)`` read from the text.
  public static func statesNoAmount(_ text: String, amounts: FeeRange?) -> Bool {
    amounts == nil && text.contains(where: \.isLetter) && !saysFree(text) && !text.lowercased().contains("free")
  }

  /// Whether the text says `무료` (free) anywhere.
  public static func saysFree(_ text: String) -> Bool {
    if text.utf8.count < 6 { return false }
    return UTF8Scanning.withBytes(text) { bytes in
      var i = 0
      while i + 6 <= bytes.count {
        if UTF8Scanning.matches(bytes, at: i, Glyph.mu)
          && UTF8Scanning.matches(bytes, at: i + 3, Glyph.ryo)
        {
          return true
        }
        i += 1
      }
      return false
    }
  }
}

// MARK: - Scanner

/// One pass over a fee text's bytes, collecting the lowest and highest amount.
private struct FeeScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var low = Int.max
  var high = Int.min

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// A number as written: digits with optional comma groups and one decimal part.
  struct Number {
    var integer: Int
    var fraction: Int
    var fractionDigits: Int
    /// The digits did not fit in `Int`.
    var overflow: Bool
    var end: Int

    var isWhole: Bool { fractionDigits == 0 }
  }

  /// What follows a number: its magnitude word, and whether a won unit closes it.
  enum Magnitude {
    case one, thousand, tenThousand

    var factor: Int {
      switch self {
      case .one: return 1
      case .thousand: return 1000
      case .tenThousand: return 10_000
      }
    }
  }

  /// A number with its unit read: an amount when `value` is set, else a bare number that
  /// may still be the left side of a range.
  struct Term {
    /// The amount in won, when the term is closed by a won unit and fits in `Int`.
    var value: Int?
    /// The term ends in a won unit (even if its value overflowed).
    var hasUnit: Bool
    /// The number itself and the magnitude word written after it (bare terms).
    var number: Number
    var magnitude: Magnitude?
    /// The largest magnitude of the term (`만` for `3만5천원`): what a bare left side of a
    /// range inherits.
    var leading: Magnitude
    var end: Int
  }

  mutating func scan() -> FeeRange? {
    var i = 0
    let n = bytes.count
    while i < n {
      let b = bytes[i]
      if UTF8Scanning.isDigit(b) {
        if startsInsideNumber(i) {
          i += 1
          continue
        }
        i = readTermOrRange(at: i)
      } else if UTF8Scanning.matches(bytes, at: i, Glyph.wonSign)
        || UTF8Scanning.matches(bytes, at: i, Glyph.fullwidthWonSign)
      {
        i = readPrefixedAmount(at: i + 3)
      } else {
        i += 1
      }
    }
    return low <= high ? FeeRange(min: low, max: high) : nil
  }

  private mutating func record(_ value: Int) {
    if value < low { low = value }
    if value > high { high = value }
  }

  /// A digit right after `3,` or `2.` continues a number the scanner already passed over
  /// (for example after a failed comma group); it never starts a new one. Nor does a
  /// zero-padded group after a stray separator (`,000원`): its leading digits are lost.
  private func startsInsideNumber(_ i: Int) -> Bool {
    guard i >= 1 else { return false }
    let previous = bytes[i - 1]
    if UTF8Scanning.isDigit(previous) { return true }
    guard previous == UInt8(ascii: ",") || previous == UInt8(ascii: ".") else { return false }
    if i >= 2, UTF8Scanning.isDigit(bytes[i - 2]) { return true }
    return bytes[i] == UInt8(ascii: "0") && i + 1 < bytes.count && UTF8Scanning.isDigit(bytes[i + 1])
  }

  /// Reads one term at `i`; when it is bare and a range separator follows, reads the
  /// right side too. Returns where scanning continues.
  private mutating func readTermOrRange(at i: Int) -> Int {
    let term = readTerm(at: i)
    if term.hasUnit {
      if let value = term.value { record(value) }
      return term.end
    }
    // A bare number: maybe `10,000~30,000원` or `1~3만원`.
    guard let rightStart = rangeRightSide(after: term.end) else { return term.end }
    let right = readTerm(at: rightStart)
    guard right.hasUnit, let rightValue = right.value else { return term.end }
    record(rightValue)
    if let left = leftValue(term, inheriting: right.leading, rightValue: rightValue) {
      record(left)
    }
    return right.end
  }

  /// `₩20,000` / `￦ 2만`: the sign is the unit.
  private mutating func readPrefixedAmount(at index: Int) -> Int {
    let i = UTF8Scanning.skipSpaces(bytes, from: index)
    guard i < bytes.count, UTF8Scanning.isDigit(bytes[i]) else { return index }
    let term = readTerm(at: i)
    if term.hasUnit {
      if let value = term.value { record(value) }
    } else if let value = scaled(term.number, by: term.magnitude ?? .one, wonUnit: true) {
      record(value)
    }
    return term.end
  }

  /// The value of a range's bare left side, scaled by its own magnitude word or, failing
  /// that, the right side's. A left side larger than the right one is read as plain won
  /// when that makes an ordered range, else dropped.
  private func leftValue(_ term: Term, inheriting leading: Magnitude, rightValue: Int) -> Int? {
    if let own = term.magnitude { return scaled(term.number, by: own, wonUnit: false) }
    if let value = scaled(term.number, by: leading, wonUnit: leading == .one), value <= rightValue {
      return value
    }
    if let value = scaled(term.number, by: .one, wonUnit: true), value <= rightValue {
      return value
    }
    return nil
  }

  /// Where the right side of a range starts, when a separator follows a bare term.
  private func rangeRightSide(after end: Int) -> Int? {
    var i = UTF8Scanning.skipSpaces(bytes, from: end)
    guard i < bytes.count else { return nil }
    let b = bytes[i]
    if b == UInt8(ascii: "~") || b == UInt8(ascii: "-") {
      i += 1
    } else if UTF8Scanning.matches(bytes, at: i, Glyph.fullwidthTilde)
      || UTF8Scanning.matches(bytes, at: i, Glyph.waveDash)
      || UTF8Scanning.matches(bytes, at: i, Glyph.enDash)
    {
      i += 3
    } else {
      return nil
    }
    i = UTF8Scanning.skipSpaces(bytes, from: i)
    guard i < bytes.count, UTF8Scanning.isDigit(bytes[i]) else { return nil }
    return i
  }

  // MARK: Terms

  /// Reads a number and the unit words after it.
  private func readTerm(at start: Int) -> Term {
    let number = readNumber(at: start)
    var term = Term(
      value: nil, hasUnit: false, number: number, magnitude: nil, leading: .one, end: number.end)
    var i = UTF8Scanning.skipSpaces(bytes, from: number.end)

    if UTF8Scanning.matches(bytes, at: i, Glyph.man) {
      // 11만원, 1.5만원, 1만5천원, 1만 5천원, 1만5000원
      term.magnitude = .tenThousand
      term.leading = .tenThousand
      term.end = i + 3
      i = UTF8Scanning.skipSpaces(bytes, from: i + 3)
      var rest = 0
      if i < bytes.count, UTF8Scanning.isDigit(bytes[i]) {
        let sub = readNumber(at: i)
        let afterSub = UTF8Scanning.skipSpaces(bytes, from: sub.end)
        if sub.isWhole, !sub.overflow, sub.integer < 10,
          UTF8Scanning.matches(bytes, at: afterSub, Glyph.cheon)
        {
          guard let units = unitsAfterThousand(at: afterSub + 3) else { return term }
          rest = sub.integer * 1000 + units.value
          i = units.next
        } else if sub.isWhole, !sub.overflow, sub.integer < 10_000 {
          rest = sub.integer
          i = afterSub
        } else {
          // `2만 30,000원` is two numbers, not one amount.
          return term
        }
      }
      guard UTF8Scanning.matches(bytes, at: i, Glyph.won) || matchesKRW(at: i) else {
        return term
      }
      term.hasUnit = true
      term.end = i + 3
      if let base = scaled(number, by: .tenThousand, wonUnit: false) {
        let (sum, overflow) = base.addingReportingOverflow(rest)
        if !overflow { term.value = sum }
      }
      return term
    }

    if UTF8Scanning.matches(bytes, at: i, Glyph.cheon) {
      // 5천원, 5천 원, 5천500원; the coefficient of 천 is a single digit in Korean.
      guard number.isWhole, !number.overflow, number.integer < 10 else { return term }
      term.magnitude = .thousand
      term.leading = .thousand
      term.end = i + 3
      guard let units = unitsAfterThousand(at: i + 3) else { return term }
      let value = number.integer * 1000 + units.value
      i = units.next
      guard UTF8Scanning.matches(bytes, at: i, Glyph.won) || matchesKRW(at: i) else {
        return term
      }
      term.hasUnit = true
      term.value = value
      term.end = i + 3
      return term
    }

    if UTF8Scanning.matches(bytes, at: i, Glyph.won) || matchesKRW(at: i) {
      term.hasUnit = true
      term.end = i + 3
      term.value = scaled(number, by: .one, wonUnit: true)
    }
    return term
  }

  /// The units that may follow 천 (the 500 of 5천500원; 0 when no number follows) and
  /// where reading goes on; `nil` when the number there is not 0…999.
  private func unitsAfterThousand(at start: Int) -> (value: Int, next: Int)? {
    let i = UTF8Scanning.skipSpaces(bytes, from: start)
    guard i < bytes.count, UTF8Scanning.isDigit(bytes[i]) else { return (0, i) }
    let units = readNumber(at: i)
    guard units.isWhole, !units.overflow, units.integer < 1000 else { return nil }
    return (units.integer, UTF8Scanning.skipSpaces(bytes, from: units.end))
  }

  /// `KRW`, any case, not followed by another letter.
  private func matchesKRW(at i: Int) -> Bool {
    guard i + 3 <= bytes.count else { return false }
    guard bytes[i] | 0x20 == UInt8(ascii: "k"), bytes[i + 1] | 0x20 == UInt8(ascii: "r"),
      bytes[i + 2] | 0x20 == UInt8(ascii: "w")
    else { return false }
    if i + 3 < bytes.count {
      let next = bytes[i + 3] | 0x20
      if next >= UInt8(ascii: "a") && next <= UInt8(ascii: "z") { return false }
    }
    return true
  }

  /// The amount in won of a number times a magnitude; `nil` when it overflows or is not a
  /// whole number of won.
  ///
  /// With a plain won unit, a "fraction" of exactly three digits is a thousands group
  /// written with a full stop (`20.000원`), since there are no fractional won.
  private func scaled(_ number: Number, by magnitude: Magnitude, wonUnit: Bool) -> Int? {
    if number.overflow { return nil }
    let factor = magnitude.factor
    if number.isWhole {
      let (v, o) = number.integer.multipliedReportingOverflow(by: factor)
      return o ? nil : v
    }
    if magnitude == .one {
      guard wonUnit, number.fractionDigits == 3 else { return nil }
      let (thousands, o1) = number.integer.multipliedReportingOverflow(by: 1000)
      let (v, o2) = thousands.addingReportingOverflow(number.fraction)
      return o1 || o2 ? nil : v
    }
    // 1.5만 = 15,000: the fraction's won must come out whole.
    var divisor = 1
    for _ in 0..<number.fractionDigits { divisor *= 10 }
    let (fractionWon, o0) = number.fraction.multipliedReportingOverflow(by: factor)
    guard !o0, fractionWon % divisor == 0 else { return nil }
    let (whole, o1) = number.integer.multipliedReportingOverflow(by: factor)
    let (v, o2) = whole.addingReportingOverflow(fractionWon / divisor)
    return o1 || o2 ? nil : v
  }

  /// Reads `12`, `20,000`, `1,100,000`, `1.5` at `start` (which holds a digit).
  ///
  /// A comma continues the number only before exactly three digits, so `30,000원, 20,000원`
  /// stays two numbers. At most four fraction digits are kept (enough for `1.5만`).
  private func readNumber(at start: Int) -> Number {
    var number = Number(integer: 0, fraction: 0, fractionDigits: 0, overflow: false, end: start)
    var i = start
    let n = bytes.count
    func appendDigit(_ digit: Int) {
      let (m, o1) = number.integer.multipliedReportingOverflow(by: 10)
      let (s, o2) = m.addingReportingOverflow(digit)
      if o1 || o2 { number.overflow = true } else { number.integer = s }
    }
    while i < n, UTF8Scanning.isDigit(bytes[i]) {
      appendDigit(Int(bytes[i] &- 0x30))
      i += 1
    }
    while i < n, bytes[i] == UInt8(ascii: ","), isThreeDigitGroup(at: i + 1) {
      for k in 1...3 { appendDigit(Int(bytes[i + k] &- 0x30)) }
      i += 4
    }
    if i + 1 < n, bytes[i] == UInt8(ascii: "."), UTF8Scanning.isDigit(bytes[i + 1]) {
      i += 1
      while i < n, UTF8Scanning.isDigit(bytes[i]) {
        if number.fractionDigits < 4 {
          number.fraction = number.fraction * 10 + Int(bytes[i] &- 0x30)
          number.fractionDigits += 1
        }
        i += 1
      }
    }
    number.end = i
    return number
  }

  /// Three digits at `i`, not followed by a fourth.
  private func isThreeDigitGroup(at i: Int) -> Bool {
    guard i + 3 <= bytes.count else { return false }
    for k in 0..<3 where !UTF8Scanning.isDigit(bytes[i + k]) { return false }
    return i + 3 == bytes.count || !UTF8Scanning.isDigit(bytes[i + 3])
  }
}
