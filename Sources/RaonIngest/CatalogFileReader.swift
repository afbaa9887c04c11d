import Foundation
import RaonCore

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
