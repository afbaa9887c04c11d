import Foundation
import RaonErrors

/// Why a CSV, JSON or Markdown file could not be written, in words a person can act on.
public enum TextExportError: RaonError, CustomStringConvertible, Sendable {
  /// The output directory (or a subdirectory such as `csv/`) could not be created.
  case cannotCreateDirectory(path: String, reason: String)
  /// A file could not be created, written or closed.
  case cannotWrite(path: String, reason: String)
  /// The C library's converter to CP949 is missing on this machine.
  case encoderUnavailable(encoding: String)

  public var description: String {
    switch self {
    case .cannotCreateDirectory(let path, let reason):
      return "Cannot create the directory \(path): \(Self.sentence(reason)). Check the --out path and its permissions."
    case .cannotWrite(let path, let reason):
      return "Cannot write \(path): \(Self.sentence(reason)). Check free disk space and permissions of the --out directory."
    case .encoderUnavailable(let encoding):
      return "This system's iconv cannot convert to \(encoding); use the default utf8-bom CSV encoding instead."
    }
  }

  /// A reason without its own closing period, so the message never reads "space.. Check".
  private static func sentence(_ reason: String) -> String {
    var text = Substring(reason)
    while text.last == "." || text.last == " " { text.removeLast() }
    return String(text)
  }
}

/// The small file-system steps every text writer shares, with errors wrapped in context.
enum TextOutput {
  /// Creates `directory` (and parents) when missing.
  static func makeDirectory(_ directory: URL) throws {
    do {
      try OutputDirectories.create(directory)
    } catch let error as TextExportError {
      throw error
    } catch {
      throw TextExportError.cannotCreateDirectory(
        path: directory.path, reason: reason(of: error))
    }
  }

  /// Writes a whole UTF-8 text file at once (reports, JSON, SVG are small).
  static func writeText(_ text: String, to url: URL) throws {
    do {
      // From the string's own bytes: a report's HTML is ~80 MB at a million programs, and
      // `Data(text.utf8)` copied all of it while both were held.
      var text = text
      try text.withUTF8 { bytes in
        guard let base = bytes.baseAddress else { return try Data().write(to: url, options: .atomic) }
        let view = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none)
        try view.write(to: url, options: .atomic)
      }
    } catch {
      throw TextExportError.cannotWrite(path: url.path, reason: reason(of: error))
    }
  }

  static func reason(of error: Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError {
      return underlying.localizedDescription
    }
    return ns.localizedDescription
  }
}

extension TextExportError {
  public var exitStatus: ExitStatus {
    switch self {
    case .cannotCreateDirectory, .cannotWrite, .encoderUnavailable: .failure
    }
  }
}
