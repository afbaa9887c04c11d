import Foundation
import RaonDocument

/// What a writer wrote and anything the user should know about it.
public struct ExportResult: Sendable {
  /// Paths relative to the output directory.
  public var files: [String]
  /// One-line warnings (e.g. characters CP949 could not hold).
  public var warnings: [String]
  /// Pages still to print (``PDFReportWriter``): their files are listed in ``files``, and
  /// the job writes them with its printer (``PDFPrinting``) before it publishes.
  public var printing: [PrintJob]

  public init(files: [String] = [], warnings: [String] = [], printing: [PrintJob] = []) {
    self.files = files
    self.warnings = warnings
    self.printing = printing
  }

  /// `other`'s files, warnings and pages after these.
  public mutating func append(_ other: ExportResult) {
    files += other.files
    warnings += other.warnings
    printing += other.printing
  }
}

/// A writer of one report format: it renders a composed document (``ReportDocument``)
/// into files in a directory it is given, and never reads the store, the network or the
/// clock. A format that lists every program (`programs.csv`, the workbook's programs
/// sheet) is given them with the report (``FormatEntry/withPrograms``). What files a format makes
/// is said by its registry entry (``FormatEntry/outputs``).
public protocol ReportWriter: Sendable {
  /// Writes `document` into `directory`; nothing for a document the format is not
  /// written for (the trend has no page).
  func write(_ document: ReportDocument, into directory: URL, options: ExportOptions) throws -> ExportResult
}
