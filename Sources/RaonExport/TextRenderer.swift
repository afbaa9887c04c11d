import Foundation
import RaonDocument

/// A text file a renderer makes: its path in the output folder (`report.md`,
/// `charts/running-by-district.svg`) and its text.
public struct OutputFile: Sendable, Equatable {
  public var path: String
  public var text: String

  public init(_ path: String, _ text: String) {
    self.path = path
    self.text = text
  }
}

/// A format made from the document alone, as text files (Markdown, HTML, JSON): it renders,
/// and the one ``TextOutput/write(_:into:)`` writes what it rendered, the same way for
/// every such format. (The formats that list every program — the workbook, `programs.csv` —
/// read them as they write: ``FormatEntry/withPrograms``.)
public protocol TextRenderer: ReportWriter {
  /// The files of `document`, without touching the file system; none when the format has
  /// no file for it.
  func files(for document: ReportDocument, options: ExportOptions) throws -> [OutputFile]
}

extension TextRenderer {
  public func write(_ document: ReportDocument, into directory: URL, options: ExportOptions) throws
    -> ExportResult
  {
    try TextOutput.write(try files(for: document, options: options), into: directory)
  }
}

extension TextOutput {
  /// Writes `files` into `directory`: the folder, then the folders their paths name, then
  /// each file, in order.
  ///
  /// - Returns: The files' paths, in order.
  static func write(_ files: [OutputFile], into directory: URL) throws -> ExportResult {
    guard !files.isEmpty else { return ExportResult() }
    try makeDirectory(directory)
    var folders: [String] = []
    for file in files {
      let folder = (file.path as NSString).deletingLastPathComponent
      if !folder.isEmpty, !folders.contains(folder) { folders.append(folder) }
    }
    for folder in folders { try makeDirectory(directory.appendingPathComponent(folder, isDirectory: true)) }
    for file in files { try writeText(file.text, to: directory.appendingPathComponent(file.path)) }
    return ExportResult(files: files.map(\.path))
  }
}
