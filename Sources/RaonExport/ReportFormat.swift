import Foundation
import RaonDocument

/// The format registry: the formats, each one's writer, the order formats are written and
/// listed in, and the names a format may create in an output folder. A new format is its
/// writer, and its case and writer line here.
public enum ReportFormat: String, CaseIterable, Sendable {
  case md, xlsx, csv, json, html
  /// `report.html` printed by a headless Chromium: needs a program Raon does not ship.
  case pdf

  /// What `raon report` writes when no format is asked for (and what `all` means): every
  /// format that needs nothing outside Raon — not `pdf`, which needs Chromium.
  public static let defaults: [ReportFormat] = allCases.filter { $0 != .pdf }

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

  /// Renders `document` in each of `formats` (in ``ordered(_:)`` order) into `directory`;
  /// the first failure stops the rest (nothing is published then). html and pdf share one
  /// render of the page (`page`): the PDF is queued from the page `report.html` holds.
  ///
  /// - Returns: Each format's result, by format (the failed one's error among them).
  public static func render(
    _ formats: [ReportFormat], _ document: ReportDocument, into directory: URL, options: ExportOptions,
    page: (ReportDocument) throws -> HTMLPage? = { HTMLReportWriter().page($0) }
  ) -> [ReportFormat: Result<ExportResult, any Error>] {
    var results: [ReportFormat: Result<ExportResult, any Error>] = [:]
    var rendered: Result<HTMLPage?, any Error>?
    for format in ordered(formats) {
      let written = Result { () throws -> ExportResult in
        switch format {
        case .html, .pdf:
          let made = rendered ?? Result { try page(document) }
          rendered = made
          guard let page = try made.get() else { return ExportResult() }
          return format == .html
            ? try HTMLReportWriter.write(page, into: directory) : PDFReportWriter.queue(page, in: directory)
        default:
          return try format.writer.write(document, into: directory, options: options)
        }
      }
      results[format] = written
      if case .failure = written { break }
    }
    return results
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
