import Foundation
import RaonConcurrency
import RaonCore
import RaonErrors

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a catalog file could not be opened.
public enum CatalogFileError: RaonError, CustomStringConvertible, Equatable {
  /// The file could not be read (missing, a directory, no permission, …).
  case unreadable(path: String, reason: String)
  /// The file is another catalog than the one asked for (its header is that catalog's).
  case otherCatalog(path: String, found: CatalogProfile.Name, asked: CatalogProfile.Name)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "\(path): cannot read the catalog file (\(reason)); check the path and "
        + "permissions"
    case .otherCatalog(let path, let found, let asked):
      return "\(path): this file is \(CatalogProfile.known(found)?.title ?? found.rawValue), not "
        + "\(CatalogProfile.known(asked)?.title ?? asked.rawValue) — record it with --catalog \(found.rawValue) "
        + "(in a store of its own: a store holds one catalog)"
    }
  }

}

/// Reads a catalog file of any supported kind, choosing the reader by content.
///
/// A ZIP file is an Excel workbook (``XLSXCatalogReader``); an OLE2 compound file is a
/// binary `.xls`, refused with advice. Otherwise the first byte that is not a UTF-8 BOM or
/// white space decides: `{` or `[` → JSON (``JSONCatalogReader``), `<` → an HTML table
/// (``HTMLTableReader``), anything else → CSV (``CSVCatalogReader``). Content decides
/// rather than the extension because downloads get renamed. Every batch carries the
/// SHA-256 of the file's bytes and a warning when a known column matched no label
/// (``HeaderCheck``).
public enum CatalogFileReader {
  /// The kind of content a file holds.
  public enum Format: String, Sendable { case csv, json, xlsx, html, binaryExcel }

  /// Reads the catalog file at `url`.
  ///
  /// - Parameter url: A file URL.
  /// - Returns: The records; `source` is the file's name, `sourceTotal` the number of
  ///   records read.
  /// - Throws: ``CatalogFileError``, ``TextDecodingError``, ``CSVCatalogError`` or
  ///   ``JSONCatalogError``, each naming the file.
  ///   - profile: The catalog the file should be (its header is checked against it).
  public static func read(_ url: URL, profile: CatalogProfile = .seoul) throws -> CatalogBatch {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw CatalogFileError.unreadable(path: url.path, reason: reason(error, url: url))
    }
    return try read(data, name: url.lastPathComponent, profile: profile)
  }

  /// What ``forEachChunk(_:chunkSize:_:)`` read.
  public struct Summary: Sendable {
    /// The file's name.
    public var source: String
    /// The source's own count (for a table, the number of records).
    public var sourceTotal: Int?
    /// The number of records delivered.
    public var count: Int
    /// SHA-256 (lower-case hex) of the file's bytes.
    public var inputSHA256: String
    /// Warnings about the file (see ``CatalogBatch/warnings``).
    public var warnings: [String]
  }

  /// Reads the catalog file at `url` in chunks of at most `chunkSize` records, in order:
  /// the same records as ``read(_:)``, without holding them all at once.
  ///
  /// A CSV file in UTF-8 is read in place from a memory map whose pages are released as
  /// the reading moves on; a CP949 or repaired file is decoded whole first (its decoded
  /// text is held, its records are not). JSON is read whole and delivered as one chunk.
  ///
  /// - Returns: The source name (the file's name), the source's own count (for CSV the
  ///   number of records) and the number of records delivered.
  /// - Throws: As ``read(_:)`` — possibly after earlier chunks were delivered — or what
  ///   `body` throws.
  public static func forEachChunk(
    _ url: URL, chunkSize: Int, profile: CatalogProfile = .seoul, _ body: ([RawRecord]) throws -> Void
  ) throws -> Summary {
    let name = url.lastPathComponent
    let file: MappedFile
    do {
      file = try MappedFile(path: url.path)
    } catch {
      // The same messages as a whole read.
      do { _ = try Data(contentsOf: url) } catch {
        throw CatalogFileError.unreadable(path: url.path, reason: reason(error, url: url))
      }
      throw CatalogFileError.unreadable(path: url.path, reason: String(describing: error))
    }
    let bytes = file.bytes
    // The file's hash is computed beside the reading, on another thread.
    let digest = PendingDigest(file)
    let format = sniff(UnsafeRawBufferPointer(bytes))
    guard format == .csv else {
      var batch = try read(Data(bytes), name: name, format: format, hashed: false, profile: profile)
      batch.inputSHA256 = digest.value()
      if !batch.records.isEmpty { try body(batch.records) }
      return Summary(
        source: name, sourceTotal: batch.sourceTotal, count: batch.records.count,
        inputSHA256: digest.value(), warnings: batch.warnings)
    }
    var start = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
    var warnings: [String] = []
    var checkedHeader = false
    func checking(_ records: [RawRecord]) throws {
      if !checkedHeader, let first = records.first {
        checkedHeader = true
        try check(first.names, source: name, profile: profile)
        if let warning = HeaderCheck.warning(for: first.names.names, source: name, profile: profile) {
          warnings.append(warning)
        }
      }
      try body(records)
    }
    let text = UnsafeBufferPointer(rebasing: bytes[start...])
    let count: Int
    var empty = 0
    if file.isValidUTF8(from: start) {
      count = try CSVCatalogReader.forEachChunk(
        text, source: name, chunkSize: chunkSize, profile: profile,
        consumed: { file.release(upTo: start + $0) }, emptyRecord: { _ in empty += 1 }, checking)
    } else {
      let decoded = try CatalogTextDecoder.decode(buffer: UnsafeRawBufferPointer(bytes), source: name)
      file.release(upTo: bytes.count)
      count = try decoded.utf8.withUnsafeBufferPointer {
        try CSVCatalogReader.forEachChunk(
          $0, replacementOffsets: decoded.replacementOffsets, source: name,
          chunkSize: chunkSize, profile: profile, emptyRecord: { _ in empty += 1 }, checking)
      }
    }
    if let warning = emptyRowsWarning(empty, source: name) { warnings.append(warning) }
    return Summary(
      source: name, sourceTotal: count, count: count, inputSHA256: digest.value(),
      warnings: warnings)
  }

  /// Reads catalog bytes that came from somewhere other than a file (e.g. standard input).
  ///
  /// - Parameters:
  ///   - data: The bytes.
  ///   - name: The source name for locations and messages.
  ///   - profile: The catalog the bytes should be.
  public static func read(_ data: Data, name: String, profile: CatalogProfile = .seoul) throws -> CatalogBatch {
    let format = data.withUnsafeBytes { sniff($0) }
    return try read(data, name: name, format: format, hashed: true, profile: profile)
  }

  private static func read(
    _ data: Data, name: String, format: Format, hashed: Bool, profile: CatalogProfile
  ) throws -> CatalogBatch {
    var batch: CatalogBatch
    switch format {
    case .json: batch = try JSONCatalogReader.read(data, source: name)
    case .csv: batch = try CSVCatalogReader.read(data, source: name, profile: profile)
    case .xlsx: batch = try XLSXCatalogReader.read(data, source: name)
    case .html:
      let text = try CatalogTextDecoder.decode(data, source: name)
      batch = try HTMLTableReader.read(String(decoding: text.utf8, as: UTF8.self), source: name)
    case .binaryExcel: throw SpreadsheetError.binaryExcel(source: name)
    }
    if let first = batch.records.first {
      try check(first.names, source: name, profile: profile)
      if format != .json,
        let warning = HeaderCheck.warning(for: first.names.names, source: name, profile: profile)
      {
        batch.warnings.append(warning)
      }
    }
    if let warning = emptyRowsWarning(batch.emptyRecordsSkipped, source: name) {
      batch.warnings.append(warning)
    }
    if hashed {
      var hasher = SHA256()
      data.withUnsafeBytes { hasher.update($0) }
      batch.inputSHA256 = SHA256.hexString(hasher.finalize())
    }
    return batch
  }

  /// Refuses records whose fields are another catalog's than `profile`: a file that
  /// lacks the fields `profile` requires but carries another catalog's. (A file that is no
  /// catalog's at all is refused by the readers, by its header.)
  static func check(_ names: FieldNames, source: String, profile: CatalogProfile) throws {
    let present = names.fields
    if profile.missingRequired(in: present).isEmpty { return }
    if let other = CatalogProfile.detect(present), other.name != profile.name {
      throw CatalogFileError.otherCatalog(path: source, found: other.name, asked: profile.name)
    }
  }

  /// The line that says how many blank records were skipped, `nil` when none were.
  static func emptyRowsWarning(_ count: Int, source: String) -> String? {
    guard count > 0 else { return nil }
    let rows = count == 1 ? "1 empty row" : "\(count) empty rows"
    return "\(source): \(rows) skipped (every field blank; no program recorded for \(count == 1 ? "it" : "them"))"
  }

  /// The format `data` holds, judged by its first bytes.
  public static func sniff(_ data: Data) -> Format {
    data.withUnsafeBytes { sniff($0) }
  }

  /// The format of `bytes`: a ZIP is a workbook, an OLE2 file a binary `.xls`; else the
  /// first significant byte decides.
  static func sniff(_ bytes: UnsafeRawBufferPointer) -> Format {
    if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
      return .xlsx
    }
    if bytes.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return .binaryExcel }
    var index = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D:
        index += 1
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        return .json
      case UInt8(ascii: "<"):
        return .html
      default:
        return .csv
      }
    }
    return .csv
  }

  private static func reason(_ error: Error, url: URL) -> String {
    var isDirectory: ObjCBool = false
    if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
      return "no such file"
    }
    if isDirectory.boolValue { return "it is a directory" }
    if !FileManager.default.isReadableFile(atPath: url.path) { return "permission denied" }
    return (error as NSError).localizedDescription
  }
}

/// The SHA-256 of a mapped file, computed on a thread of its own while the file is read.
private struct PendingDigest {
  private let pending: PendingResult<String>

  init(_ file: MappedFile) {
    // The closure holds the mapping until the hash is done.
    pending = PendingResult.start {
      var hasher = SHA256()
      hasher.update(UnsafeRawBufferPointer(file.bytes))
      return SHA256.hexString(hasher.finalize())
    }
  }

  /// Waits for the hash.
  func value() -> String {
    (try? pending.wait().get()) ?? ""
  }
}

/// A file mapped read-only into memory, whose pages can be given back once read.
///
/// Sendable for the digest thread, which only reads `bytes`; releasing pages changes no
/// byte a reader sees (they are read again from the file).
final class MappedFile: @unchecked Sendable {
  let bytes: UnsafeBufferPointer<UInt8>
  private let base: UnsafeMutableRawPointer?
  private let length: Int
  private var released = 0
  private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  struct Failure: RaonError, CustomStringConvertible {
    var exitStatus: ExitStatus { .failure }
    var description: String
  }

  init(path: String) throws {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw Failure(description: String(cString: strerror(errno))) }
    guard (info.st_mode & S_IFMT) == S_IFREG else { throw Failure(description: "not a regular file") }
    length = Int(info.st_size)
    if length == 0 {
      base = nil
      bytes = UnsafeBufferPointer(start: nil, count: 0)
      return
    }
    guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED
    else { throw Failure(description: String(cString: strerror(errno))) }
    base = mapped
    bytes = UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt8.self), count: length)
    _ = madvise(mapped, length, MADV_SEQUENTIAL)
  }

  deinit {
    if let base { munmap(base, length) }
  }

  /// Gives back the pages wholly before `offset` (they are read again from the file should
  /// they be touched).
  func release(upTo offset: Int) {
    guard let base else { return }
    let end = min(offset, length) / Self.pageSize * Self.pageSize
    guard end > released else { return }
    _ = madvise(base + released, end - released, MADV_DONTNEED)
    released = end
  }

  /// Whether the bytes from `start` are valid UTF-8, releasing pages as they are checked.
  func isValidUTF8(from start: Int) -> Bool {
    let step = 32 << 20
    var from = start
    while from < bytes.count {
      // Checks whole sequences starting before the block's end, reading past it if need be.
      guard let next = CatalogTextDecoder.validUTF8Prefix(bytes, from: from, until: min(bytes.count, from + step))
      else {
        released = 0  // pages are read again from the file as needed
        return false
      }
      from = next
      release(upTo: from)
    }
    released = 0
    return true
  }
}

extension CatalogFileError {
  public var exitStatus: ExitStatus {
    switch self {
    case .unreadable, .otherCatalog: .failure
    }
  }
}
