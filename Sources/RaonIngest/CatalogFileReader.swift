import Foundation
import RaonCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a catalog file could not be opened.
public enum CatalogFileError: Error, CustomStringConvertible, Equatable {
  /// The file could not be read (missing, a directory, no permission, …).
  case unreadable(path: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "\(path): cannot read the catalog file (\(reason)); check the path and "
        + "permissions"
    }
  }
}

/// Reads a catalog file of any supported kind, choosing the reader by content.
///
/// The first byte that is not a UTF-8 BOM or white space decides: `{` or `[` → JSON
/// (``JSONCatalogReader``), anything else → CSV (``CSVCatalogReader``). Content decides
/// rather than the extension because downloads get renamed.
public enum CatalogFileReader {
  /// The kind of content a file holds.
  public enum Format: String, Sendable { case csv, json }

  /// Reads the catalog file at `url`.
  ///
  /// - Parameter url: A file URL.
  /// - Returns: The records; `source` is the file's name, `sourceTotal` the number of
  ///   records read.
  /// - Throws: ``CatalogFileError``, ``TextDecodingError``, ``CSVCatalogError`` or
  ///   ``JSONCatalogError``, each naming the file.
  public static func read(_ url: URL) throws -> CatalogBatch {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw CatalogFileError.unreadable(path: url.path, reason: reason(error, url: url))
    }
    return try read(data, name: url.lastPathComponent)
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
    _ url: URL, chunkSize: Int, _ body: ([RawRecord]) throws -> Void
  ) throws -> (source: String, sourceTotal: Int?, count: Int) {
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
    var start = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
    var index = start
    var isJSON = false
    scan: while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      case UInt8(ascii: "{"), UInt8(ascii: "["): isJSON = true; break scan
      default: break scan
      }
    }
    if isJSON {
      let batch = try JSONCatalogReader.read(Data(bytes), source: name)
      if !batch.records.isEmpty { try body(batch.records) }
      return (name, batch.sourceTotal, batch.records.count)
    }
    let text = UnsafeBufferPointer(rebasing: bytes[start...])
    if file.isValidUTF8(from: start) {
      let count = try CSVCatalogReader.forEachChunk(
        text, source: name, chunkSize: chunkSize,
        consumed: { file.release(upTo: start + $0) }, body)
      return (name, count, count)
    }
    let decoded = try CatalogTextDecoder.decode(buffer: UnsafeRawBufferPointer(bytes), source: name)
    file.release(upTo: bytes.count)
    let count = try decoded.utf8.withUnsafeBufferPointer {
      try CSVCatalogReader.forEachChunk(
        $0, replacementOffsets: decoded.replacementOffsets, source: name,
        chunkSize: chunkSize, body)
    }
    return (name, count, count)
  }

  /// Reads catalog bytes that came from somewhere other than a file (e.g. standard input).
  ///
  /// - Parameters:
  ///   - data: The bytes.
  ///   - name: The source name for locations and messages.
  public static func read(_ data: Data, name: String) throws -> CatalogBatch {
    switch sniff(data) {
    case .json: return try JSONCatalogReader.read(data, source: name)
    case .csv: return try CSVCatalogReader.read(data, source: name)
    }
  }

  /// The format `data` holds, judged by its first significant byte.
  public static func sniff(_ data: Data) -> Format {
    var index = data.startIndex
    if data.count >= 3, data.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
    while index < data.endIndex {
      switch data[index] {
      case 0x20, 0x09, 0x0A, 0x0D:
        index += 1
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        return .json
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

/// A file mapped read-only into memory, whose pages can be given back once read.
final class MappedFile {
  let bytes: UnsafeBufferPointer<UInt8>
  private let base: UnsafeMutableRawPointer?
  private let length: Int
  private var released = 0
  private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  struct Failure: Error, CustomStringConvertible {
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
