import Foundation
import RaonDocument

/// A report format, by the name `--format` and the config's `formats` give it (`md`,
/// `xlsx`, …). What a format is — its writer, the files it makes, which jobs write it — is
/// its entry in the registry (``FormatRegistry``), the one list of formats.
public struct ReportFormat: Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String

  public init(_ name: String) { rawValue = name }

  public var description: String { rawValue }

  public static let md = ReportFormat("md")
  public static let xlsx = ReportFormat("xlsx")
  public static let csv = ReportFormat("csv")
  public static let json = ReportFormat("json")
  public static let html = ReportFormat("html")
  /// `report.html` printed by a headless Chromium: needs a program Raon does not ship.
  public static let pdf = ReportFormat("pdf")
}

/// The jobs that write formats.
public enum FormatJob: Sendable, Hashable {
  /// `raon report`: the weekly report (and its district packs).
  case report
  /// `raon diff --out`: two snapshots compared.
  case comparison
  /// `raon trend`.
  case trend
  /// `raon site`: each week's report.
  case site
}

/// What a job does with a format.
public enum FormatUse: Sendable, Hashable {
  /// Always written, asked or not (the site's week pages are HTML).
  case always
  /// Written when no format is asked for, and by `all`.
  case byDefault
  /// Written when asked for by name (or, when it needs nothing outside Raon, by `all`).
  case onRequest
  /// Not a format of this job.
  case never
}

/// What a format may make in an output folder, by name: a file, or a folder of files with
/// one ending (`charts/` of `.svg`). The publisher replaces an earlier folder only when it
/// holds nothing else.
public enum OutputEntry: Hashable, Sendable {
  case file(String)
  case folder(String, holding: String)

  public var name: String {
    switch self {
    case .file(let name), .folder(let name, _): return name
    }
  }
}

/// What an output folder may hold: every name, and which of them are folders of files
/// with one ending.
public struct FolderShape: Sendable {
  public var names: Set<String>
  /// Folder name → the ending of every file in it.
  public var folders: [String: String]

  public init(_ entries: [OutputEntry]) {
    names = Set(entries.map(\.name))
    folders = [:]
    for case .folder(let name, let ending) in entries { folders[name] = ending }
  }

  /// The shape with more names (a report's `districts/`, a site's pages).
  public func adding(_ more: Set<String>) -> FolderShape {
    var shape = self
    shape.names.formUnion(more)
    return shape
  }
}

/// One format in the registry: its name and spellings, its writer, what it makes, and what
/// each job does with it.
public struct FormatEntry: Sendable {
  public var format: ReportFormat
  /// Other names `--format` accepts for it (`markdown`, `excel`).
  public var aliases: [String]
  /// What the format needs beyond Raon, said in the help (`printed by Chromium`); such a
  /// format is never part of `all`.
  public var needs: String?
  public var uses: [FormatJob: FormatUse]
  /// The files and folders it may make in a report's or a comparison's folder, and in the
  /// trend's.
  public var outputs: [OutputEntry]
  public var trendOutputs: [OutputEntry]
  public var writer: any ReportWriter
  /// For a format made from the HTML page (html writes it, pdf queues it for printing):
  /// the page is rendered once for every such format.
  public var fromPage: (@Sendable (HTMLPage, URL) throws -> ExportResult)?
  /// For a format that lists every program of a report: its sink
  /// (``ReportFormat/sink(programCount:knowing:into:options:)``).
  public var sink: (@Sendable (_ programCount: Int, _ knowing: WeeklyReport?, URL, ExportOptions) throws -> any ReportSink)?

  public init(
    _ format: ReportFormat, aliases: [String] = [], needs: String? = nil, uses: [FormatJob: FormatUse],
    outputs: [OutputEntry], trendOutputs: [OutputEntry] = [], writer: any ReportWriter,
    fromPage: (@Sendable (HTMLPage, URL) throws -> ExportResult)? = nil,
    sink: (@Sendable (Int, WeeklyReport?, URL, ExportOptions) throws -> any ReportSink)? = nil
  ) {
    self.format = format
    self.aliases = aliases
    self.needs = needs
    self.uses = uses
    self.outputs = outputs
    self.trendOutputs = trendOutputs
    self.writer = writer
    self.fromPage = fromPage
    self.sink = sink
  }

  /// What `job` does with this format (never, when the entry does not say).
  public func use(in job: FormatJob) -> FormatUse { uses[job] ?? .never }
}

/// The format registry: the one list of formats. The command line's help and its checks,
/// the config's `formats`, each job's defaults and formats, the order files are written and
/// listed in, and what a report, comparison or trend folder may hold all come from it; a
/// new format is its writer and its entry here (``standard``), nothing else.
public struct FormatRegistry: Sendable {
  public private(set) var entries: [FormatEntry]

  public init(_ entries: [FormatEntry]) { self.entries = entries }

  /// Raon's formats, in the order they are written and listed.
  public static let standard = FormatRegistry([
    FormatEntry(
      .md, aliases: ["markdown"],
      uses: [.report: .byDefault, .comparison: .byDefault, .trend: .byDefault, .site: .never],
      outputs: [.file("report.md"), .folder("charts", holding: ".svg"), .file("changes.md")],
      trendOutputs: [.file(TrendWriters.markdownFileName), .folder("charts", holding: ".svg")],
      writer: MarkdownReportWriter()),
    FormatEntry(
      .xlsx, aliases: ["excel"],
      uses: [.report: .byDefault, .comparison: .byDefault, .trend: .byDefault, .site: .byDefault],
      outputs: [.file(XLSXReportWriter.fileName), .file(XLSXReportWriter.comparisonFileName)],
      trendOutputs: [.file(TrendWriters.workbookFileName)], writer: XLSXReportWriter(),
      sink: { count, report, directory, options in
        XLSXWorkbookSink(programCount: count, knowing: report, writer: XLSXReportWriter(), into: directory, options: options)
      }),
    FormatEntry(
      .csv, uses: [.report: .byDefault, .comparison: .byDefault, .trend: .byDefault, .site: .byDefault],
      outputs: [.folder("csv", holding: ".csv")], trendOutputs: [.file(TrendWriters.csvFileName)],
      writer: CSVReportWriter(), sink: { _, _, directory, options in try CSVProgramsSink(into: directory, options: options) }),
    FormatEntry(
      .json, uses: [.report: .byDefault, .comparison: .byDefault, .trend: .byDefault, .site: .byDefault],
      outputs: [.file("report.json"), .file("changes.json")], trendOutputs: [.file(TrendWriters.jsonFileName)],
      writer: JSONReportWriter()),
    FormatEntry(
      .html, uses: [.report: .byDefault, .comparison: .onRequest, .trend: .never, .site: .always],
      outputs: [.file(HTMLPage.reportName), .file(HTMLPage.comparisonName)], writer: HTMLReportWriter(),
      fromPage: { page, directory in try HTMLReportWriter.write(page, into: directory) }),
    FormatEntry(
      .pdf, needs: "printed by Chromium",
      uses: [.report: .onRequest, .comparison: .onRequest, .trend: .never, .site: .onRequest],
      outputs: [.file(PDFReportWriter.fileName), .file(PDFReportWriter.comparisonFileName)], writer: PDFReportWriter(),
      fromPage: { page, directory in PDFReportWriter.queue(page, in: directory) }),
  ])

  /// The registry with one more format, written after the others.
  public func adding(_ entry: FormatEntry) -> FormatRegistry {
    FormatRegistry(entries.filter { $0.format != entry.format } + [entry])
  }

  public func entry(_ format: ReportFormat) -> FormatEntry? { entries.first { $0.format == format } }

  /// Every format, in order.
  public var formats: [ReportFormat] { entries.map(\.format) }

  /// `formats` in the order every job writes them and lists their files, each once.
  public func ordered(_ formats: [ReportFormat]) -> [ReportFormat] {
    entries.map(\.format).filter { formats.contains($0) }
  }

  /// The formats `job` uses as `uses` says, in order.
  public func formats(for job: FormatJob, _ uses: Set<FormatUse>) -> [ReportFormat] {
    entries.filter { uses.contains($0.use(in: job)) }.map(\.format)
  }

  /// What `job` writes when no format is asked for: the formats it always writes, then its
  /// default ones.
  public func defaults(for job: FormatJob) -> [ReportFormat] {
    formats(for: job, [.always]) + formats(for: job, [.byDefault])
  }

  /// What `all` means for `job`: every format of the job that needs nothing outside Raon.
  public func all(for job: FormatJob) -> [ReportFormat] {
    entries.filter { $0.use(in: job) != .never && $0.needs == nil }.map(\.format)
  }

  /// The format `text` names (its name or an alias, any case), if any.
  public func format(named text: String) -> ReportFormat? {
    let name = text.trimmingCharacters(in: .whitespaces).lowercased()
    return entries.first { $0.format.rawValue == name || $0.aliases.contains(name) }?.format
  }

  /// What a report's or a comparison's folder may hold; the trend's.
  public var reportFolder: FolderShape { FolderShape(entries.flatMap(\.outputs)) }
  public var trendFolder: FolderShape { FolderShape(entries.filter { $0.use(in: .trend) != .never }.flatMap(\.trendOutputs)) }

  // MARK: - Help

  /// `--format`'s help for `job`: its formats, its default and what `all` means.
  public func help(for job: FormatJob) -> String {
    let defaults = formats(for: job, [.byDefault]).map(\.rawValue)
    switch job {
    case .report:
      let asked = entries.filter { $0.use(in: job) == .onRequest }.map { entry in
        "\(entry.format) (\(entry.needs.map { "\($0), " } ?? "")asked by name)"
      }
      return "Formats, comma-separated: \(defaults.joined(separator: ",")) (the default, also 'all')"
        + (asked.isEmpty ? "" : " and " + asked.joined(separator: " and ")) + "."
    case .comparison:
      let usable = entries.filter { $0.use(in: job) != .never }.map(\.format.rawValue)
      return "Formats written into --out, comma-separated: \(usable.joined(separator: ",")), or 'none' "
        + "(default \(defaults.joined(separator: ",")))."
    case .trend:
      return "Formats, comma-separated: \(defaults.joined(separator: ",")) (the default), or 'none'."
    case .site:
      let always = formats(for: job, [.always]).map { "\($0) (always)" }
      let asked = formats(for: job, [.onRequest]).map(\.rawValue)
      return "The week reports' formats, comma-separated: \((always + defaults).joined(separator: ", ")) (the default)"
        + (asked.isEmpty ? "" : " and " + asked.joined(separator: ", ")) + "."
    }
  }
}

extension ReportFormat {
  /// Renders `document` in each of `formats` (in the registry's order) into `directory`;
  /// the first failure stops the rest (nothing is published then). The formats made from
  /// the HTML page (html, pdf) share one render of it (`page`): the PDF is queued from the
  /// page `report.html` holds.
  ///
  /// - Returns: Each format's result, by format (the failed one's error among them).
  public static func render(
    _ formats: [ReportFormat], _ document: ReportDocument, into directory: URL, options: ExportOptions,
    registry: FormatRegistry = .standard, page: (ReportDocument) throws -> HTMLPage? = { HTMLReportWriter().page($0) }
  ) -> [ReportFormat: Result<ExportResult, any Error>] {
    var results: [ReportFormat: Result<ExportResult, any Error>] = [:]
    var rendered: Result<HTMLPage?, any Error>?
    for format in registry.ordered(formats) {
      guard let entry = registry.entry(format) else { continue }
      let written = Result { () throws -> ExportResult in
        if let fromPage = entry.fromPage {
          let made = rendered ?? Result { try page(document) }
          rendered = made
          guard let page = try made.get() else { return ExportResult() }
          return try fromPage(page, directory)
        }
        return try entry.writer.write(document, into: directory, options: options)
      }
      results[format] = written
      if case .failure = written { break }
    }
    return results
  }
}
