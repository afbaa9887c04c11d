import Foundation
import RaonCore
import RaonDocument

/// Streams one CSV file: cells are appended as bytes to a buffer that goes to disk in
/// chunks of about 1 MiB, so a million programs never become one giant `String`.
///
/// Rules (RFC 4180, plus what spreadsheets need):
/// - Fields are separated by `,`; rows end in CRLF, which RFC 4180 specifies and Excel
///   expects. A line break inside a value is kept as it is, inside quotes.
/// - A field containing `,`, `"`, CR or LF is quoted, with `"` doubled.
/// - Text cells starting with `=`, `+`, `-`, `@`, tab or CR get a leading `'` so a
///   spreadsheet shows them instead of running them as formulas (OWASP CSV injection) —
///   except text that is a plain decimal number (`-3`, `-12.5`), which stays a number.
/// - Numbers Raon computes are written as plain digits and never guarded.
struct CSVFileWriter {
  private let sink: CSVSink
  private var bytes: [UInt8] = []
  private var fieldsInRow = 0
  private static let chunkSize = 1 << 20

  /// Opens `url` for writing in `encoding` (writing the BOM for `utf8BOM`).
  init(url: URL, encoding: CSVEncoding) throws {
    sink = try CSVSink(url: url, encoding: encoding)
    bytes.reserveCapacity(Self.chunkSize + 64 * 1024)
  }

  // MARK: - Cells

  /// A text cell: guarded against formula injection, quoted when needed.
  mutating func text(_ value: String) {
    separate()
    var value = value
    value.withUTF8 { utf8 in appendText(utf8) }
  }

  /// A cell written as given (numbers, booleans, dates Raon formatted itself).
  mutating func raw(_ value: String) {
    separate()
    bytes.append(contentsOf: value.utf8)
  }

  /// An integer cell; empty for `nil`.
  mutating func int(_ value: Int?) {
    separate()
    guard let value else { return }
    appendDigits(value)
  }

  /// A decimal cell (`3`, `2.5`); empty for `nil`, NaN and infinities.
  mutating func decimal(_ value: Double?) {
    separate()
    guard let value, let text = DecimalText.shortest(value) else { return }
    bytes.append(contentsOf: text.utf8)
  }

  /// A date cell `YYYY-MM-DD`; empty for `nil`.
  mutating func day(_ value: CalendarDay?) {
    separate()
    guard let value else { return }
    appendPadded(value.year, width: 4)
    bytes.append(UInt8(ascii: "-"))
    appendPadded(value.month, width: 2)
    bytes.append(UInt8(ascii: "-"))
    appendPadded(value.day, width: 2)
  }

  /// A whole row of text cells.
  mutating func textRow(_ values: [String]) throws {
    for v in values { text(v) }
    try endRow()
  }

  /// Ends the row; hands a full buffer to the file.
  mutating func endRow() throws {
    bytes.append(13)
    bytes.append(10)
    fieldsInRow = 0
    if bytes.count >= Self.chunkSize {
      try sink.write(bytes)
      bytes.removeAll(keepingCapacity: true)
    }
  }

  /// Writes what is left and closes the file.
  /// - Returns: how many characters were written as `?` (CP949 only).
  mutating func finish() throws -> Int {
    try sink.write(bytes)
    bytes.removeAll()
    return try sink.close()
  }

  // MARK: - Bytes

  private mutating func separate() {
    if fieldsInRow > 0 { bytes.append(UInt8(ascii: ",")) }
    fieldsInRow += 1
  }

  private mutating func appendText(_ utf8: UnsafeBufferPointer<UInt8>) {
    var needsQuotes = false
    for b in utf8 where b == 0x2C || b == 0x22 || b == 0x0D || b == 0x0A {
      needsQuotes = true
      break
    }
    let guarded = Self.needsFormulaGuard(utf8)
    if needsQuotes { bytes.append(0x22) }
    if guarded { bytes.append(UInt8(ascii: "'")) }
    if needsQuotes {
      for b in utf8 {
        if b == 0x22 { bytes.append(0x22) }
        bytes.append(b)
      }
      bytes.append(0x22)
    } else {
      bytes.append(contentsOf: utf8)
    }
  }

  /// Whether a text cell would start a formula in a spreadsheet.
  static func needsFormulaGuard(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = utf8.first else { return false }
    switch first {
    case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "@"), 0x09, 0x0D:
      return true
    case UInt8(ascii: "-"):
      return !isPlainNumber(utf8)
    default:
      return false
    }
  }

  /// `-?digits(.digits)?` — a negative number a spreadsheet reads as a number, which is
  /// safe; anything else starting with `-` (`-x`, `--`, `-1+1`) could be a formula.
  static func isPlainNumber(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    if i < utf8.count, utf8[i] == UInt8(ascii: "-") { i += 1 }
    var intDigits = 0
    while i < utf8.count, (48...57).contains(utf8[i]) {
      i += 1
      intDigits += 1
    }
    guard intDigits > 0 else { return false }
    if i == utf8.count { return true }
    guard utf8[i] == UInt8(ascii: ".") else { return false }
    i += 1
    var fracDigits = 0
    while i < utf8.count, (48...57).contains(utf8[i]) {
      i += 1
      fracDigits += 1
    }
    return fracDigits > 0 && i == utf8.count
  }

  private mutating func appendDigits(_ value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var n = value.magnitude
    let start = bytes.count
    repeat {
      bytes.append(UInt8(48 + n % 10))
      n /= 10
    } while n > 0
    bytes[start...].reverse()
  }

  private mutating func appendPadded(_ value: Int, width: Int) {
    let start = bytes.count
    appendDigits(value)
    let missing = width - (bytes.count - start)
    if missing > 0 {
      bytes.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: missing), at: start)
    }
  }
}

/// Where a CSV file's bytes go: the file, through the chosen encoding.
final class CSVSink {
  private let url: URL
  private let handle: FileHandle
  private let converter: CP949Converter?
  private var closed = false

  init(url: URL, encoding: CSVEncoding) throws {
    self.url = url
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw TextExportError.cannotWrite(path: url.path, reason: "the file cannot be created")
    }
    do {
      handle = try FileHandle(forWritingTo: url)
    } catch {
      throw TextExportError.cannotWrite(path: url.path, reason: TextOutput.reason(of: error))
    }
    converter = encoding == .cp949 ? try CP949Converter() : nil
    if encoding == .utf8BOM { try write([0xEF, 0xBB, 0xBF], encode: false) }
  }

  func write(_ utf8: [UInt8], encode: Bool = true) throws {
    guard !utf8.isEmpty else { return }
    let out = encode ? (converter?.convert(utf8) ?? utf8) : utf8
    do {
      try handle.write(contentsOf: out)
    } catch {
      throw TextExportError.cannotWrite(path: url.path, reason: TextOutput.reason(of: error))
    }
  }

  /// - Returns: how many characters were written as `?`.
  func close() throws -> Int {
    guard !closed else { return converter?.replacements ?? 0 }
    closed = true
    do {
      try handle.close()
    } catch {
      throw TextExportError.cannotWrite(path: url.path, reason: TextOutput.reason(of: error))
    }
    return converter?.replacements ?? 0
  }

  deinit {
    // A writer that threw part-way still releases its descriptor.
    if !closed { try? handle.close() }
  }
}
