/// The scalar values of ``TOMLSyntaxCheck``: strings, numbers, dates and times.
extension TOMLSyntaxCheck {
  // MARK: - Strings

  /// A `"basic string"`, its escapes decoded (for keys).
  mutating func basicString() throws -> String {
    at += 1
    var scalars = String.UnicodeScalarView()
    var start = at
    while true {
      guard let c = peek() else { throw failure("the string is not closed with \"") }
      switch c {
      case .quote:
        scalars.append(contentsOf: String(decoding: bytes[start..<at], as: UTF8.self).unicodeScalars)
        at += 1
        return String(scalars)
      case .backslash:
        scalars.append(contentsOf: String(decoding: bytes[start..<at], as: UTF8.self).unicodeScalars)
        scalars.append(try escape())
        start = at
      case .lf, .cr:
        throw failure("the string is not closed on its line (text over several lines goes in \"\"\"…\"\"\")")
      default:
        try checkStringByte(c)
        at += 1
      }
    }
  }

  /// A `'literal string'`.
  mutating func literalString() throws -> String {
    at += 1
    let start = at
    while true {
      guard let c = peek() else { throw failure("the string is not closed with '") }
      switch c {
      case .apostrophe:
        at += 1
        return String(decoding: bytes[start..<(at - 1)], as: UTF8.self)
      case .lf, .cr:
        throw failure("the string is not closed on its line (text over several lines goes in '''…''')")
      default:
        try checkStringByte(c)
        at += 1
      }
    }
  }

  /// `"""…"""` or `'''…'''`: newlines allowed, up to two quotes before the closing three.
  mutating func multiLineString(quote: UInt8) throws {
    let openLine = line
    at += 3
    _ = newline()
    let closing = quote == .quote ? "\"\"\"" : "'''"
    while true {
      guard let c = peek() else {
        throw failure("the multi-line string opened on line \(openLine) is not closed with \(closing)")
      }
      if c == quote {
        var run = 0
        while peek(run) == quote { run += 1 }
        at += run
        if run >= 3 {
          guard run <= 5 else { throw failure("too many quotes (\(run)) where the string ends") }
          return
        }
      } else if c == .lf || c == .cr {
        guard newline() else { throw failure("a carriage return (CR) not followed by a line feed") }
      } else if c == .backslash && quote == .quote {
        var after = 1
        while peek(after) == .space || peek(after) == .tab { after += 1 }
        if peek(after) == .lf || (peek(after) == .cr && peek(after + 1) == .lf) {
          // A line-ending backslash: the newline and the blanks after it are trimmed.
          at += after
          _ = newline()
          while true {
            skipBlanks()
            if !newline() { break }
          }
        } else {
          _ = try escape()
        }
      } else {
        try checkStringByte(c)
        at += 1
      }
    }
  }

  func checkStringByte(_ c: UInt8) throws {
    guard c == .tab || (c >= 0x20 && c != 0x7F) else {
      throw failure("a string holds the control character \(describe(c)) — write it as an escape like \\t")
    }
  }

  /// `\b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX`, the backslash at `at`.
  mutating func escape() throws -> Unicode.Scalar {
    guard let c = peek(1) else { throw failure("the string is not closed") }
    at += 2
    switch c {
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "r"): return "\r"
    case .quote: return "\""
    case .backslash: return "\\"
    case UInt8(ascii: "u"), UInt8(ascii: "U"):
      let count = c == UInt8(ascii: "u") ? 4 : 8
      var value: UInt32 = 0
      for k in 0..<count {
        guard let byte = peek(k), let digit = Self.hexValue(byte) else {
          throw failure("\\\(Character(Unicode.Scalar(c))) needs \(count) hexadecimal digits")
        }
        value = value << 4 | UInt32(digit)
      }
      guard let scalar = Unicode.Scalar(value) else {
        throw failure("\\\(Character(Unicode.Scalar(c))) names no Unicode character (a surrogate or beyond U+10FFFF)")
      }
      at += count
      return scalar
    default:
      at -= 1
      throw failure("\\\(describeRaw(c)) is not an escape TOML knows (a backslash itself is written \\\\)")
    }
  }

  // MARK: - Numbers, dates and times

  mutating func numberOrDate() throws {
    if isDigit(0), isDigit(1), isDigit(2), isDigit(3), peek(4) == .minus { return try dateTime() }
    if isDigit(0), isDigit(1), peek(2) == .colon { return try time() }
    var negative = false
    if peek() == .plus || peek() == .minus {
      negative = peek() == .minus
      at += 1
      if peek() == UInt8(ascii: "i") { return try word("inf") }
      if peek() == UInt8(ascii: "n") { return try word("nan") }
    } else if peek() == UInt8(ascii: "0"), let radix = peek(1).flatMap(Self.radix) {
      at += 2
      let value = try digits(radix: radix, leadingZeroAllowed: true)
      guard let value, value <= UInt64(Int64.max) else {
        throw failure("the number does not fit in 64 bits (at most 9,223,372,036,854,775,807)")
      }
      return
    }
    let magnitude = try digits(radix: 10, leadingZeroAllowed: false)
    var isFloat = false
    if peek() == .dot {
      at += 1
      isFloat = true
      _ = try digits(radix: 10, leadingZeroAllowed: true)
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      at += 1
      isFloat = true
      if peek() == .plus || peek() == .minus { at += 1 }
      _ = try digits(radix: 10, leadingZeroAllowed: true)
    }
    guard isFloat || magnitude.map({ $0 <= (negative ? 1 << 63 : UInt64(Int64.max)) }) == true else {
      throw failure("the number does not fit in 64 bits (\(Int64.min) to \(Int64.max))")
    }
  }

  /// Digits with single `_` between them; the value, or `nil` past 64 bits.
  mutating func digits(radix: UInt64, leadingZeroAllowed: Bool) throws -> UInt64? {
    guard let first = peek(), let d = Self.digitValue(first, radix: radix) else {
      throw failure("expected a digit, saw \(describe(peek()))")
    }
    if !leadingZeroAllowed, d == 0, let next = peek(1), next == .underscore || isDigit(1) {
      throw failure("a number cannot start with 0 (write 7, not 07)")
    }
    var value: UInt64? = 0
    while let c = peek() {
      if c == .underscore {
        guard let next = peek(1), Self.digitValue(next, radix: radix) != nil else {
          throw failure("'_' in a number must stand between two digits")
        }
        at += 1
        continue
      }
      guard let digit = Self.digitValue(c, radix: radix) else { break }
      if let v = value {
        let (times, o1) = v.multipliedReportingOverflow(by: radix)
        let (plus, o2) = times.addingReportingOverflow(UInt64(digit))
        value = o1 || o2 ? nil : plus
      }
      at += 1
    }
    return value
  }

  /// `YYYY-MM-DD`, then `T`, `t` or a space and a time, then an offset (`Z`, `+09:00`).
  mutating func dateTime() throws {
    let year = try fixedDigits(4)
    at += 1  // -
    let month = try fixedDigits(2)
    guard peek() == .minus else { throw failure("a date is written YYYY-MM-DD") }
    at += 1
    let day = try fixedDigits(2)
    guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day) else {
      throw failure("\(year)-\(Self.two(month))-\(Self.two(day)) is not a day of the calendar")
    }
    let delimiter = peek()
    let timeFollows =
      delimiter == UInt8(ascii: "T") || delimiter == UInt8(ascii: "t")
      || (delimiter == .space && isDigit(1) && isDigit(2) && peek(3) == .colon)
    guard timeFollows else { return }
    at += 1
    try time()
    if peek() == UInt8(ascii: "Z") || peek() == UInt8(ascii: "z") {
      at += 1
    } else if peek() == .plus || peek() == .minus {
      at += 1
      let hours = try fixedDigits(2)
      guard peek() == .colon else { throw failure("a time offset is written +HH:MM") }
      at += 1
      let minutes = try fixedDigits(2)
      guard hours < 24, minutes < 60 else { throw failure("the time offset is out of range") }
    }
  }

  /// `HH:MM:SS` and an optional fraction.
  mutating func time() throws {
    let hour = try fixedDigits(2)
    guard peek() == .colon else { throw failure("a time is written HH:MM:SS") }
    at += 1
    let minute = try fixedDigits(2)
    guard peek() == .colon else { throw failure("a time is written HH:MM:SS (seconds included)") }
    at += 1
    let second = try fixedDigits(2)
    guard hour < 24, minute < 60, second <= 60 else {
      throw failure("\(Self.two(hour)):\(Self.two(minute)):\(Self.two(second)) is not a time of day")
    }
    if peek() == .dot {
      at += 1
      guard isDigit(0) else { throw failure("expected the fraction of a second after '.'") }
      while isDigit(0) { at += 1 }
    }
  }

  mutating func fixedDigits(_ count: Int) throws -> Int {
    var value = 0
    for _ in 0..<count {
      guard let c = peek(), c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else {
        throw failure("expected a digit of a date or time, saw \(describe(peek()))")
      }
      value = value * 10 + Int(c - UInt8(ascii: "0"))
      at += 1
    }
    return value
  }
}
