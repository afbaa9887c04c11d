import Foundation
import RaonAnalytics
import RaonConcurrency
import RaonCore
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
  /// For a format that lists every program of a report (`programs.csv`, the workbook's
  /// programs sheet): how it writes a report with its programs, read in one pass.
  public var withPrograms: ProgramsWriter?

  public typealias ProgramsWriter = @Sendable (WeeklyReport, ProgramChunks, URL, ExportOptions) throws -> ExportResult
  /// For a format that can begin before the report is known, with the programs and the
  /// changes (the workbook's programs and changes sheets): how it begins; `nil` from it
  /// when it cannot begin so.
  public var begin: Beginning?

  public typealias Beginning = @Sendable (ProgramChunks, SnapshotDiff?, CalendarDay, URL, ExportOptions) throws -> Begun?

  /// A format begun before its report is known: what writes the rest once it is.
  public typealias Begun = @Sendable (WeeklyReport) throws -> ExportResult

  public init(
    _ format: ReportFormat, aliases: [String] = [], needs: String? = nil, uses: [FormatJob: FormatUse],
    outputs: [OutputEntry], trendOutputs: [OutputEntry] = [], writer: any ReportWriter,
    fromPage: (@Sendable (HTMLPage, URL) throws -> ExportResult)? = nil, withPrograms: ProgramsWriter? = nil,
    begin: Beginning? = nil
  ) {
    self.format = format
    self.aliases = aliases
    self.needs = needs
    self.uses = uses
    self.outputs = outputs
    self.trendOutputs = trendOutputs
    self.writer = writer
    self.fromPage = fromPage
    self.withPrograms = withPrograms
    self.begin = begin
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
      withPrograms: XLSXReportWriter.write(_:programs:into:options:), begin: XLSXReportWriter.begin),
    FormatEntry(
      .csv, uses: [.report: .byDefault, .comparison: .byDefault, .trend: .byDefault, .site: .byDefault],
      outputs: [.folder("csv", holding: ".csv")], trendOutputs: [.file(TrendWriters.csvFileName)],
      writer: CSVReportWriter(), withPrograms: CSVProgramsFile.write(_:programs:into:options:)),
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
  /// Renders `document` in each of `formats` into `directory`, side by side: each format
  /// (the formats made from the HTML page together: html, pdf) on a core of its own as
  /// the cores go, those that list every program first (the longest to write). A format
  /// that lists every program is handed `programs` with a report (``FormatEntry/withPrograms``),
  /// and reads them in one pass; one begun already (``begin(_:programs:changes:day:into:options:registry:)``)
  /// is finished with the report. The page is rendered once for html and pdf: the PDF is
  /// queued from the page `report.html` holds.
  ///
  /// - Returns: Each format's result, by format (a failed one's error among them); nothing
  ///   is published when one failed, so the others are not stopped.
  public static func render(
    _ formats: [ReportFormat], _ document: ReportDocument, programs: ProgramChunks? = nil,
    begun: [ReportFormat: FormatEntry.Begun] = [:], into directory: URL, options: ExportOptions,
    registry: FormatRegistry = .standard,
    page: (ReportDocument) throws -> HTMLPage? = { HTMLReportWriter().page($0) }
  ) -> [ReportFormat: Result<ExportResult, any Error>] {
    let entries = registry.ordered(formats).compactMap(registry.entry)
    let listing = entries.filter { $0.withPrograms != nil }
    let fromPage = entries.filter { $0.fromPage != nil }
    let rest = entries.filter { $0.withPrograms == nil && $0.fromPage == nil }
    let tasks = listing.map { [$0] } + rest.map { [$0] } + (fromPage.isEmpty ? [] : [fromPage])
    // Each task is one format but for the page's, whose formats share one render of it.
    let done = ParallelWork.map(tasks.count, minimumCount: 2) { i in
      var rendered: Result<HTMLPage?, any Error>?
      return tasks[i].map { entry in
        (entry.format, Result { () throws -> ExportResult in
          if let fromPage = entry.fromPage {
            let made = rendered ?? Result { try page(document) }
            rendered = made
            guard let html = try made.get() else { return ExportResult() }
            return try fromPage(html, directory)
          }
          if let finish = begun[entry.format], case .report(let report) = document { return try finish(report) }
          if let withPrograms = entry.withPrograms, let programs, case .report(let report) = document {
            return try withPrograms(report, programs, directory, options)
          }
          return try entry.writer.write(document, into: directory, options: options)
        })
      }
    }
    return Dictionary(done.joined().map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
  }
}

extension ReportFormat {
  /// Begins those of `formats` that can begin before their report is known, with its
  /// `programs` and its `changes` (dated `day`) (``FormatEntry/begin``), into `directory`.
  ///
  /// - Returns: What finishes each format begun, for ``render(_:_:programs:begun:into:options:registry:page:)``.
  public static func begin(
    _ formats: [ReportFormat], programs: ProgramChunks, changes: SnapshotDiff?, day: CalendarDay, into directory: URL,
    options: ExportOptions, registry: FormatRegistry = .standard
  ) throws -> [ReportFormat: FormatEntry.Begun] {
    var begun: [ReportFormat: FormatEntry.Begun] = [:]
    for format in registry.ordered(formats) {
      if let finish = try registry.entry(format)?.begin?(programs, changes, day, directory, options) {
        begun[format] = finish
      }
    }
    return begun
  }
}

extension XLSXReportWriter {
  /// `report.xlsx` with its programs, in one go (the registry's entry).
  static func write(_ report: WeeklyReport, programs: ProgramChunks, into directory: URL, options: ExportOptions)
    throws -> ExportResult
  {
    try XLSXReportWriter().write(report, programs: programs, into: directory, options: options)
  }

  /// `report.xlsx` begun with its programs and changes sheets (the registry's entry).
  static func begin(
    _ programs: ProgramChunks, changes: SnapshotDiff?, day: CalendarDay, into directory: URL, options: ExportOptions
  ) throws -> FormatEntry.Begun? {
    guard
      let started = try XLSXReportWriter().start(
        programs: programs, changes: changes, day: day, into: directory, options: options)
    else { return nil }
    return { report in try started.finish(report) }
  }
}

extension CSVProgramsFile {
  /// `csv/`: `programs.csv` row by row as the programs are read, then the tables (the
  /// registry's entry).
  static func write(_ report: WeeklyReport, programs: ProgramChunks, into directory: URL, options: ExportOptions)
    throws -> ExportResult
  {
    let file = try CSVProgramsFile(into: directory, options: options)
    try programs.forEach(file.append)
    var result = try file.finish()
    result.append(try CSVReportWriter().write(.report(report), into: directory, options: options))
    return result
  }
}
