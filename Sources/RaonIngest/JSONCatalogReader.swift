import Foundation
import RaonCore
import RaonErrors

/// Why a JSON catalog (file or API page) could not be read.
public enum JSONCatalogError: RaonError, CustomStringConvertible, Equatable {
  /// The text is not JSON, or stops early (`truncated`).
  case syntax(
    source: String, offset: Int, line: Int, column: Int, problem: String, truncated: Bool)
  /// Valid JSON, but not one of the catalog's shapes.
  case unrecognizedShape(source: String, found: String)
  /// An element of the rows array is not an object.
  case rowNotAnObject(source: String, row: Int, found: String)
  /// The document is an Open API error response (`RESULT.CODE` other than INFO-000).
  case apiResult(source: String, code: String, message: String)

  public var description: String {
    switch self {
    case .syntax(let source, _, _, _, _, _), .unrecognizedShape(let source, _),
      .rowNotAnObject(let source, _, _), .apiResult(let source, _, _):
      return "\(source): \(detail)"
    }
  }

  /// What went wrong and what to do, without the source's name (callers that name the
  /// source their own way, like the API client's "page 2 (rows 1001–2000)", use this).
  public var detail: String {
    switch self {
    case .syntax(_, let offset, let line, let column, let problem, let truncated):
      let place = "byte \(offset) (line \(line), column \(column))"
      if truncated {
        return "the JSON is truncated — \(problem) at \(place); the download was cut "
          + "short, fetch it again"
      }
      return "invalid JSON at \(place): \(problem); the data is damaged or not a JSON "
        + "catalog"
    case .unrecognizedShape(_, let found):
      return "JSON of an unknown shape (\(found)); expected an array of programs, an "
        + "object with a DATA array, or an Open API culturalEventInfo page"
    case .rowNotAnObject(_, let row, let found):
      return "row \(row) is \(found), not an object with the program's fields; the data "
        + "is not a catalog download"
    case .apiResult(_, let code, let message):
      return "the Open API answered \(code) (\(message)) instead of rows; fetch the "
        + "catalog again"
    }
  }
}

/// One page of the Open API's `culturalEventInfo` answer.
public struct OpenAPIPage: Sendable {
  /// `list_total_count`: how many rows the whole catalog has, by this page's account.
  public var totalCount: Int?
  /// `RESULT.CODE`, e.g. `INFO-000`; nil when the page carries none.
  public var resultCode: String?
  /// `RESULT.MESSAGE`.
  public var resultMessage: String?
  /// The page's rows, in order.
  public var records: [RawRecord]

  public init(
    totalCount: Int?, resultCode: String?, resultMessage: String?, records: [RawRecord]
  ) {
    self.totalCount = totalCount
    self.resultCode = resultCode
    self.resultMessage = resultMessage
    self.records = records
  }
}

/// Reads the catalog's JSON forms into raw records.
///
/// Accepted shapes:
/// - the portal's file download: a top-level array of objects, or an object holding a
///   `DATA` (or `data`) array (the portal puts a `DESCRIPTION` object beside it);
///   lower-case keys, `strtdate`/`end_date` as Unix-millisecond numbers, nulls;
/// - the Open API's page: `{"culturalEventInfo": {"list_total_count", "RESULT", "row"}}`,
///   or on errors `{"RESULT": {"CODE", "MESSAGE"}}`;
/// - the public data portal's standard-data download, `{"fields": […], "records": […]}`
///   (Korean keys), and a page of its Open API kept as a file (``PortalAPIPage``).
///
/// Values become strings: strings as they are, integers as their digits
/// (`1734793200000`), other numbers in shortest round-trip form, `null` → nil, booleans
/// `true`/`false`, nested arrays and objects as compact JSON text. Keys keep their source
/// order (the parser is hand-written for that and for byte-exact error positions); rows
/// with the same key sequence share one ``FieldNames``.
///
/// JSON is decoded with ``CatalogTextDecoder`` first (a BOM is stripped; a non-UTF-8 file
/// is read as CP949). Because the tree keeps no byte ranges, a record is marked
/// ``RawRecord/invalidBytesReplaced`` when the decoder replaced bytes and one of the
/// record's values contains U+FFFD.
public enum JSONCatalogReader {
  /// Reads a JSON catalog file.
  ///
  /// - Parameters:
  ///   - data: The file's bytes.
  ///   - source: The file name, for locations and messages.
  /// - Returns: The records; `sourceTotal` is their number.
  /// - Throws: ``JSONCatalogError`` or ``TextDecodingError``.
  public static func read(_ data: Data, source: String) throws -> CatalogBatch {
    let text = try CatalogTextDecoder.decode(data, source: source)
    let root = try parse(text.utf8, source: source)
    var records: [RawRecord]
    switch root {
    case .array(let rows):
      records = try makeRecords(rows, source: source, firstRow: 1)
    case .object:
      if let parsed = try apiPage(root: root, source: source, firstRow: 1) {
        if let code = parsed.resultCode, code != "INFO-000", parsed.records.isEmpty {
          throw JSONCatalogError.apiResult(
            source: source, code: code, message: parsed.resultMessage ?? "")
        }
        records = parsed.records
      } else if let portal = try PortalAPIPage.read(root: root, source: source, firstRow: 1) {
        // A page of the public data portal's Open API kept as a file.
        if let code = portal.resultCode, code != PortalAPIPage.success, portal.records.isEmpty {
          throw JSONCatalogError.apiResult(source: source, code: code, message: portal.resultMessage ?? "")
        }
        records = portal.records
      } else if case .array(let rows)? = root["DATA"] ?? root["data"] ?? root["records"] {
        // `records`: the public data portal's JSON download of a standard dataset, beside
        // its `fields` list.
        records = try makeRecords(rows, source: source, firstRow: 1)
      } else {
        throw JSONCatalogError.unrecognizedShape(source: source, found: shape(of: root))
      }
    default:
      throw JSONCatalogError.unrecognizedShape(source: source, found: shape(of: root))
    }
    if !text.replacementOffsets.isEmpty {
      for k in records.indices
      where records[k].values.contains(where: { $0?.contains("\u{FFFD}") == true }) {
        records[k].invalidBytesReplaced = true
      }
    }
    // A row whose every value is blank (`{}`, all `""` or `null`) holds no program.
    let kept = records.filter { !$0.values.allSatisfy { CatalogText.trimmed($0 ?? "").isEmpty } }
    var batch = CatalogBatch(source: source, sourceTotal: kept.count, records: kept)
    batch.emptyRecordsSkipped = records.count - kept.count
    return batch
  }

  /// Reads one Open API page (the client's path; no text decoding: the API speaks UTF-8).
  ///
  /// - Parameters:
  ///   - bytes: The response body.
  ///   - source: Names the page in messages and locations (never containing the key).
  ///   - firstRow: The 1-based catalog row of the page's first row, for locations.
  /// - Throws: ``JSONCatalogError`` when the body is not JSON or not a page.
  public static func readAPIPage(_ bytes: [UInt8], source: String, firstRow: Int) throws
    -> OpenAPIPage
  {
    let root = try parse(bytes, source: source)
    if let page = try apiPage(root: root, source: source, firstRow: firstRow) { return page }
    throw JSONCatalogError.unrecognizedShape(source: source, found: shape(of: root))
  }

  // MARK: - Internals

  static func parse(_ bytes: [UInt8], source: String) throws -> JSONNode {
    do {
      return try JSONParser.parse(bytes)
    } catch {
      throw JSONCatalogError.syntax(
        source: source, offset: error.offset, line: error.line, column: error.column,
        problem: error.problem, truncated: error.truncated)
    }
  }

  /// The page in `root`, or nil when `root` is not an API answer: rows and totals live in
  /// `culturalEventInfo`; errors may come as a top-level `RESULT` instead.
  private static func apiPage(root: JSONNode, source: String, firstRow: Int) throws
    -> OpenAPIPage?
  {
    let page: JSONNode
    var flat = false
    if let wrapped = root[seoulService] {
      page = wrapped
    } else if member(root, "RESULT") != nil {
      page = root
    } else if case .object = root, member(root, "CODE") != nil {
      // The flat error shape: {"CODE": "INFO-100", "MESSAGE": "…"}.
      page = root
      flat = true
    } else {
      return nil
    }
    guard case .object = page else {
      throw JSONCatalogError.unrecognizedShape(source: source, found: shape(of: page))
    }
    let result = flat ? page : member(page, "RESULT")
    let code = result.flatMap { member($0, "CODE")?.fieldText }
    let message = result.flatMap { member($0, "MESSAGE")?.fieldText }
    let total = member(page, "list_total_count")?.fieldText.flatMap { Int($0) }
    var records: [RawRecord] = []
    switch member(page, "row") {
    case .array(let rows)?:
      records = try makeRecords(rows, source: source, firstRow: firstRow)
    case nil, .null?:
      break
    case let other?:
      throw JSONCatalogError.unrecognizedShape(
        source: source, found: "\"row\" is \(shape(of: other))")
    }
    return OpenAPIPage(
      totalCount: total, resultCode: code, resultMessage: message, records: records)
  }

  /// The Seoul Open API's service, whose name wraps its pages (``CatalogProfile/seoul``).
  private static let seoulService: String = {
    guard case .keyInPath(let service) = CatalogProfile.seoul.api.style else {
      preconditionFailure("Seoul's profile has the Seoul Open API's style")
    }
    return service
  }()

  /// A member by key, falling back to a case-insensitive match (the API's own error
  /// bodies have not always agreed on `CODE` vs `code`).
  private static func member(_ node: JSONNode, _ key: String) -> JSONNode? {
    if let exact = node[key] { return exact }
    guard case .object(let members) = node else { return nil }
    return members.first { $0.key.lowercased() == key.lowercased() }?.value
  }

  static func makeRecords(_ rows: [JSONNode], source: String, firstRow: Int) throws
    -> [RawRecord]
  {
    var namesByKeys: [[String]: FieldNames] = [:]
    var records: [RawRecord] = []
    records.reserveCapacity(rows.count)
    for (index, row) in rows.enumerated() {
      guard case .object(let members) = row else {
        throw JSONCatalogError.rowNotAnObject(
          source: source, row: firstRow + index, found: shape(of: row))
      }
      let keys = members.map(\.key)
      let names: FieldNames
      if let cached = namesByKeys[keys] {
        names = cached
      } else {
        names = FieldNames(keys)
        namesByKeys[keys] = names
      }
      records.append(
        RawRecord(
          names: names, values: members.map(\.value.fieldText),
          location: SourceLocation(source: source, line: firstRow + index)))
    }
    return records
  }

  /// A short description of a JSON value's kind, for messages.
  static func shape(of node: JSONNode) -> String {
    switch node {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array(let items): return "an array of \(items.count)"
    case .object(let members):
      let keys = members.prefix(5).map(\.key).joined(separator: ", ")
      return "an object with keys \(keys)\(members.count > 5 ? ", …" : "")"
    }
  }
}

extension JSONCatalogError {
  public var exitStatus: ExitStatus {
    switch self {
    case .syntax, .unrecognizedShape, .rowNotAnObject, .apiResult: .failure
    }
  }
}
