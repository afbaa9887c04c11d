import Foundation

/// The format registry: each format's writer, the order formats are written and listed in,
/// and the names a format may create in an output folder. A new format is its writer and
/// a line here.
extension ReportFormat {
  /// The writer of this format. The streaming formats (`csv`'s `programs.csv`, `xlsx`)
  /// also take the programs as they are read: see the report job.
  public var writer: any ReportWriter {
    switch self {
    case .md: return MarkdownReportWriter()
    case .xlsx: return XLSXReportWriter()
    case .csv: return CSVReportWriter()
    case .json: return JSONReportWriter()
    case .html: return HTMLReportWriter()
    case .pdf: return PDFReportWriter()
    }
  }

  /// `formats` in the order every job writes them and lists their files
  /// (``allCases``' order), each once.
  public static func ordered(_ formats: [ReportFormat]) -> [ReportFormat] {
    allCases.filter { formats.contains($0) }
  }

  /// The formats the weekly trend is written in (no HTML or PDF of its own: the weekly
  /// report's HTML carries its trend section).
  public static let trendFormats: [ReportFormat] = [.md, .xlsx, .csv, .json]

  /// The names a report or comparison folder may hold directly (files and folders), from
  /// what each writer declares: an earlier folder holding anything else is not replaced.
  public static var reportEntries: Set<String> {
    allCases.reduce(into: []) { $0.formUnion($1.writer.outputEntries) }
  }
}
