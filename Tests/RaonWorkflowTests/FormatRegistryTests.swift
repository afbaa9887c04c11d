import Foundation
import RaonDocument
import RaonExport
import Testing

@testable import RaonWorkflow

/// The format registry is the only list of formats (issue 33, item 2): a format added to
/// it — here a throwaway one, written by a writer of this file — is named by `--format`'s
/// help, accepted by its checks and by the config, written, and its subfolder kept by the
/// publisher, with no other edit.
@Suite struct FormatRegistryTests {
  /// The throwaway format: the document's title and section titles, one a line, in a
  /// folder of its own.
  struct TitlesWriter: ReportWriter {
    static let file = "txt/titles.txt"

    func write(_ document: ReportDocument, into directory: URL, options: ExportOptions) throws -> ExportResult {
      let text = Self.text(document.document)
      let folder = directory.appendingPathComponent("txt")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: directory.appendingPathComponent(Self.file))
      return ExportResult(files: [Self.file])
    }

    static func text(_ document: Document) -> String {
      ([document.title] + document.sections.map(\.title)).joined(separator: "\n") + "\n"
    }
  }

  static let txt = ReportFormat("txt")

  static let registry = FormatRegistry.standard.adding(
    FormatEntry(
      txt, aliases: ["text"], uses: [.report: .onRequest, .comparison: .onRequest, .trend: .onRequest],
      outputs: [.folder("txt", holding: ".txt")], trendOutputs: [.folder("txt", holding: ".txt")],
      writer: TitlesWriter()))

  @Test func aRegisteredFormatIsInTheHelpAndAcceptedByName() throws {
    let registry = Self.registry
    #expect(try registry.parse(["md, TEXT", "txt"], for: .report) == [.md, Self.txt])
    #expect(try registry.parse(["all"], for: .report) == [.md, .xlsx, .csv, .json, .html, Self.txt])
    #expect(try registry.parse([], for: .report) == [.md, .xlsx, .csv, .json, .html])
    #expect(registry.help(for: .report).contains("txt (asked by name)"))
    #expect(registry.help(for: .comparison).contains(",txt,"))
    #expect(throws: WorkflowError.unknownFormat("docx", known: ["md", "xlsx", "csv", "json", "html", "pdf", "txt"])) {
      try registry.parse(["md,docx"], for: .report)
    }
    // Without its entry the same name is refused, and the help does not know it.
    #expect(throws: WorkflowError.unknownFormat("txt", known: ["md", "xlsx", "csv", "json", "html", "pdf"])) {
      try FormatRegistry.standard.parse(["txt"], for: .report)
    }
    #expect(!FormatRegistry.standard.help(for: .report).contains("txt"))
  }

  @Test func theConfigTakesTheRegisteredFormat() throws {
    let text = "lang = \"en\"\nformats = [\"md\", \"text\"]\n"
    #expect(try RaonConfig.parse(text, path: "raon.toml", registry: Self.registry).formats == [.md, Self.txt])
    do {
      _ = try RaonConfig.parse(text, path: "raon.toml")
      Issue.record("the standard registry accepted 'text'")
    } catch let WorkflowError.config(path, line, message) {
      #expect(path == "raon.toml" && line == 2 && message.contains("'text' is not a report format"), "\(message)")
    }
  }

  @Test func theRegisteredFormatIsWrittenFromTheDocument() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("raon-registry-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let document = ReportDocument.trend([], options: DocumentOptions())
    let results = ReportFormat.render([Self.txt, .json], document, into: dir, options: ExportOptions(), registry: Self.registry)
    #expect(try results[Self.txt]?.get().files == [TitlesWriter.file])
    #expect(try results[.json]?.get().files == [TrendWriters.jsonFileName])
    let written = try String(contentsOf: dir.appendingPathComponent(TitlesWriter.file), encoding: .utf8)
    #expect(written == TitlesWriter.text(document.document))
    #expect(written.hasPrefix(document.document.title + "\n") && !document.document.title.isEmpty)
  }

  /// The publisher replaces an earlier report holding the format's folder (and only what
  /// the entry says it holds) without a `ReportFolderShape` edit.
  @Test func thePublisherKeepsTheRegisteredFormatsFolderShape() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("raon-registry-\(UUID().uuidString)")
    let target = dir.appendingPathComponent("2024-W37")
    try FileManager.default.createDirectory(at: target.appendingPathComponent("txt"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data("# r\n".utf8).write(to: target.appendingPathComponent("report.md"))
    try Data("t\n".utf8).write(to: target.appendingPathComponent("txt/titles.txt"))
    let shape = OutputPublisher.reportEntries(Self.registry)
    try OutputPublisher.checkReplaceable(target, entries: shape)
    #expect(throws: WorkflowError.self) { try OutputPublisher.checkReplaceable(target) }

    // The folder holds the format's files only: anything else in it is not replaced.
    try Data("x\n".utf8).write(to: target.appendingPathComponent("txt/notes.csv"))
    #expect(throws: WorkflowError.self) { try OutputPublisher.checkReplaceable(target, entries: shape) }
  }

  /// Every job's formats come from the registry: the jobs' own lists are the registry's.
  @Test func theJobsListsAreTheRegistrys() {
    let registry = FormatRegistry.standard
    #expect(TrendWriters.formats == registry.formats(for: .trend, [.always, .byDefault, .onRequest]))
    #expect(ReportRequest().formats == registry.defaults(for: .report))
    #expect(SiteJob.Request().formats == registry.defaults(for: .site))
    #expect(registry.defaults(for: .site).first == .html)
    #expect(OutputPublisher.reportEntries.names == Set(registry.entries.flatMap(\.outputs).map(\.name) + ["districts", "regions"]))
  }
}
