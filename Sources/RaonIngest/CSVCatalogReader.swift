import Foundation
import RaonCore
import RaonErrors

/// Why a CSV catalog could not be read.
public enum CSVCatalogError: RaonError, CustomStringConvertible, Equatable {
  /// The file has no header row (it is empty or blank).
  case noHeader(source: String)
  /// The header lacks columns every catalog has; `missing` holds their Korean labels.
  case missingColumns(source: String, missing: [String], header: [String])
  /// A quoted field is still open at the end of the file.
  case unterminatedQuote(source: String, line: Int, field: String)
  /// A record has more than ``CSVCatalogReader/maxFieldsPerRecord`` fields (a line of
  /// commas would otherwise cost some 30 bytes of memory per byte of input).
  case tooManyFields(source: String, line: Int, limit: Int)
  /// The last record is shorter than the header and not ended by a line break: the
  /// download was cut short.
  case truncated(source: String, line: Int, fields: Int, expected: Int)

  public var description: String {
    switch self {
    case .noHeader(let source):
      return "\(source): the file is empty; expected a CSV whose first line is the header "
        + "(분류, 자치구, 공연/행사명, …) — download the catalog again"
    case .missingColumns(let source, let missing, let header):
      let shown = header.prefix(8).joined(separator: ", ") + (header.count > 8 ? ", …" : "")
      return "\(source):1: the header lacks the column(s) \(missing.joined(separator: ", ")) "
        + "(header: \(shown)); is this a catalog Raon reads ("
        + CatalogProfile.all.map(\.title).joined(separator: ", ")
        + ")? Use the portal's CSV download unchanged"
    case .unterminatedQuote(let source, let line, let field):
      return "\(source):\(line): the quoted value of field \(field) that starts on line "
        + "\(line) is never closed (file truncated or a stray \"); repair or re-download "
        + "the file"
    case .tooManyFields(let source, let line, let limit):
      return "\(source):\(line): the record has more than \(limit) fields; this is not the "
        + "catalog (or its line ends were lost) — repair or re-download the file"
    case .truncated(let source, let line, let fields, let expected):
      return "\(source):\(line): the last record has \(fields) of the header's \(expected) "
        + "fields and no line break after it: the download was cut short — nothing was "
        + "recorded; download the catalog again"
    }
  }
}

/// Reads the portal's CSV download (RFC 4180) into raw records.
///
/// - Quoted fields may hold commas, doubled quotes (`""` → `"`) and line breaks; lines
///   end in CRLF, LF or a lone CR.
/// - The first non-blank record is the header; columns may come in any order and under
///   any of the known labels (``CanonicalField``). Unknown columns are kept.
/// - Entirely blank lines are skipped, and so are records whose every field is blank (a
///   line of bare commas): they hold no program. Every other line is a record.
/// - A record with fewer fields than the header is padded with empty strings; one with
///   more keeps the extra values under the names `_extra_1`, `_extra_2`, … (see
///   ``extraFieldPrefix``), so a shifted row is visible rather than lost.
/// - Text after a closing quote (`"ab"c`) is appended to the value, as Python's `csv`
///   module does; a quote inside an unquoted field is kept literally.
/// - Each record's location is the file name and the 1-based line where it starts.
/// - A record containing a byte the decoder had to replace is marked
///   ``RawRecord/invalidBytesReplaced``.
public enum CSVCatalogReader {
  /// The prefix of the names given to values beyond the header's width.
  public static let extraFieldPrefix = "_extra_"
  /// The most fields one record (the header included) may have; the catalog has about 30.
  public static let maxFieldsPerRecord = 100_000

  /// Decodes and reads a CSV catalog.
  ///
  /// - Parameters:
  ///   - data: The file's bytes (CP949 or UTF-8, with or without BOM).
  ///   - source: The file name, used in locations and error messages.
  /// - Returns: The records; `sourceTotal` is their number.
  /// - Throws: ``TextDecodingError`` or ``CSVCatalogError``.
  ///   - profile: The catalog asked for: its own labels name columns too, and a header
  ///     with its required fields is its header (`nil`: the shipped catalogs').
  public static func read(_ data: Data, source: String, profile: CatalogProfile? = nil) throws -> CatalogBatch {
    try read(CatalogTextDecoder.decode(data, source: source), source: source, profile: profile)
  }

  /// Reads already decoded CSV text.
  ///
  /// - Throws: ``CSVCatalogError`` for a missing header or columns, or an unclosed quote.
  public static func read(_ text: DecodedText, source: String, profile: CatalogProfile? = nil) throws -> CatalogBatch {
    var records: [RawRecord] = []
    var empty = 0
    try text.utf8.withUnsafeBufferPointer { bytes in
      _ = try forEachChunk(
        bytes, replacementOffsets: text.replacementOffsets, source: source, chunkSize: .max, profile: profile,
        emptyRecord: { _ in empty += 1 }
      ) { records.append(contentsOf: $0) }
    }
    var batch = CatalogBatch(source: source, sourceTotal: records.count, records: records)
    batch.emptyRecordsSkipped = empty
    return batch
  }

  /// Reads UTF-8 CSV text in chunks of at most `chunkSize` records, in order: the same
  /// records as ``read(_:source:)-(DecodedText,_)``, without holding them all.
  ///
  /// - Parameters:
  ///   - bytes: The text as UTF-8, without a byte-order mark.
  ///   - replacementOffsets: Where the decoder inserted U+FFFD (ascending).
  ///   - consumed: Called after each chunk with the offset before which `bytes` is no
  ///     longer read (for releasing a mapped file's pages).
  ///   - emptyRecord: Called with the line of each record after the header whose every
  ///     field is blank (skipped).
  ///   - body: Receives each chunk.
  /// - Returns: The number of records.
  /// - Throws: ``CSVCatalogError`` (possibly after earlier chunks were delivered), or what
  ///   `body` throws.
  public static func forEachChunk(
    _ bytes: UnsafeBufferPointer<UInt8>, replacementOffsets replacements: [Int] = [],
    source: String, chunkSize: Int, profile: CatalogProfile? = nil, consumed: (Int) -> Void = { _ in },
    emptyRecord: (Int) -> Void = { _ in },
    _ body: ([RawRecord]) throws -> Void
  ) throws -> Int {
    var header: FieldNames?
    var widths = RecordWidths()
    let aliases = profile?.headerAliases ?? [:]
    var records: [RawRecord] = []
    var total = 0
    var nextReplacement = 0

    try parse(bytes, source: source, header: { header?.names }) {
      fields, line, start, end in
      // A line of bare commas (or blanks between them) holds no program. The first field
      // decides cheaply for almost every record.
      if CatalogText.trimmed((fields.first ?? nil) ?? "").isEmpty,
        fields.allSatisfy({ CatalogText.trimmed($0 ?? "").isEmpty })
      {
        if header != nil { emptyRecord(line) }
        return
      }
      guard let names = header else {
        let names = FieldNames(fields.map { $0 ?? "" }, aliases: aliases)
        // A header must be some catalog's; which one the caller asked for is checked
        // once the file is read (``CatalogFileReader``).
        guard CatalogProfile.detect(names.fields) != nil || profile?.missingRequired(in: names.fields).isEmpty == true
        else {
          let missing = CatalogProfile.closest(names.fields).missing
          throw CSVCatalogError.missingColumns(
            source: source, missing: missing, header: names.names)
        }
        header = names
        return
      }
      var values = fields
      let width = names.names.count
      // A record cut off by the end of the file (no line break after it, fields missing)
      // is a download cut short, not a short row: refuse it rather than pad it.
      if end == bytes.count, values.count < width {
        throw CSVCatalogError.truncated(
          source: source, line: line, fields: values.count, expected: width)
      }
      let recordNames = widths.fit(&values, to: names)
      // Replacement offsets are ascending and records arrive in order, so one cursor
      // finds the records that contain one.
      while nextReplacement < replacements.count, replacements[nextReplacement] < start {
        nextReplacement += 1
      }
      let replaced = nextReplacement < replacements.count && replacements[nextReplacement] < end
      records.append(
        RawRecord(
          names: recordNames, values: values,
          location: SourceLocation(source: source, line: line),
          invalidBytesReplaced: replaced))
      total += 1
      if records.count >= chunkSize {
        try body(records)
        records.removeAll(keepingCapacity: true)
        consumed(end)
      }
    }
    guard header != nil else { throw CSVCatalogError.noHeader(source: source) }
    if !records.isEmpty { try body(records) }
    consumed(bytes.count)
    return total
  }

  // MARK: - Parsing

  private static let quote = UInt8(ascii: "\"")
  private static let comma = UInt8(ascii: ",")
  private static let lineFeed = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")

  /// Splits UTF-8 CSV text into records and calls `onRecord` with each record's fields,
  /// the line it starts on, and its byte range (for replacement flags).
  static func parse(
    _ b: UnsafeBufferPointer<UInt8>, source: String, header: () -> [String]?,
    onRecord: ([String?], Int, Int, Int) throws -> Void
  ) throws {
    let n = b.count
    var i = 0
    var line = 1
    var fields: [String?] = []
    var scratch: [UInt8] = []

    @inline(__always) func string(_ from: Int, _ to: Int) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: b[from..<to]), as: UTF8.self)
    }

    while i < n {
      let first = b[i]
      if first == lineFeed || first == carriageReturn {  // an entirely blank line
        i += 1
        if first == carriageReturn, i < n, b[i] == lineFeed { i += 1 }
        line += 1
        continue
      }
      let recordStart = i
      let recordLine = line
      fields.removeAll(keepingCapacity: true)
      while true {
        var value: String
        if i < n, b[i] == quote {
          let fieldLine = line
          i += 1
          var segment = i
          var escaped = false
          var closed = false
          scratch.removeAll(keepingCapacity: true)
          while i < n {
            let c = b[i]
            if c == quote {
              if i + 1 < n, b[i + 1] == quote {
                // Keep the text up to and including one quote of the pair.
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: b[segment...i]))
                escaped = true
                i += 2
                segment = i
                continue
              }
              closed = true
              break
            }
            if c == lineFeed || (c == carriageReturn && !(i + 1 < n && b[i + 1] == lineFeed)) {
              line += 1
            }
            i += 1
          }
          guard closed else {
            let index = fields.count
            let names = header() ?? []
            let name = index < names.count ? names[index] : "#\(index + 1)"
            throw CSVCatalogError.unterminatedQuote(source: source, line: fieldLine, field: name)
          }
          if escaped {
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: b[segment..<i]))
            value = String(decoding: scratch, as: UTF8.self)
          } else {
            value = string(segment, i)
          }
          i += 1  // the closing quote
          if i < n, b[i] != comma, b[i] != lineFeed, b[i] != carriageReturn {
            let tail = i
            while i < n, b[i] != comma, b[i] != lineFeed, b[i] != carriageReturn { i += 1 }
            value += string(tail, i)
          }
        } else {
          let start = i
          while i < n {
            let c = b[i]
            if c == comma || c == lineFeed || c == carriageReturn { break }
            i += 1
          }
          value = string(start, i)
        }
        fields.append(value)
        if i < n, b[i] == comma {
          if fields.count >= maxFieldsPerRecord {
            throw CSVCatalogError.tooManyFields(
              source: source, line: recordLine, limit: maxFieldsPerRecord)
          }
          i += 1
          continue
        }
        break
      }
      let recordEnd = i
      if i < n {
        if b[i] == carriageReturn {
          i += 1
          if i < n, b[i] == lineFeed { i += 1 }
        } else {
          i += 1
        }
        line += 1
      }
      // A line of nothing but spaces or tabs is blank too; a line of commas is a record.
      if fields.count == 1, let only = fields[0],
        only.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 })
      {
        continue
      }
      try onRecord(fields, recordLine, recordStart, recordEnd)
    }
  }
}

extension CSVCatalogError {
  public var exitStatus: ExitStatus {
    switch self {
    case .noHeader, .missingColumns, .unterminatedQuote, .tooManyFields, .truncated: .failure
    }
  }
}
