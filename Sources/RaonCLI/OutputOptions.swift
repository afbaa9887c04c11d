import ArgumentParser
import RaonDocument
import RaonExport
import RaonWorkflow

/// A command that writes files: what its `--out` and `--format` mean (their help differs,
/// the options do not).
protocol WritesOutput {
  /// What `--out` names (a folder).
  static var outHelp: String { get }
  /// Which formats `--format` takes, and its default.
  static var formatHelp: String { get }
  /// Formats to suggest when `--format` lists none.
  static var formatExample: String { get }
}

/// The options `report`, `diff`, `trend` and `site` share: where the files go, in which
/// formats, in which language and CSV encoding. Language and encoding are merged over the
/// config file's typed values by ``exportOptions(over:csvHeaders:)``: an option given on
/// the command line wins, then the config, then the writers' defaults.
struct OutputOptions<Command: WritesOutput>: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp(Command.outHelp, valueName: "dir"))
  var out: String?

  @Option(name: .long, help: ArgumentHelp(Command.formatHelp, valueName: "list"))
  var format: String?

  @Option(name: .long, help: "Labels' language: ko (default) or en.")
  var lang: ReportLanguage?

  @Option(name: .customLong("csv-encoding"), help: "utf8-bom (default), utf8 or cp949.")
  var csvEncoding: CSVEncoding?

  func validate() throws {
    try OptionChecks.requireNonEmptyOut(out)
    try OptionChecks.requireFormats(format, example: Command.formatExample)
  }

  /// The writers' options: the command line over the config over the defaults.
  func exportOptions(over config: RaonConfig, csvHeaders: CSVHeaders? = nil) -> ExportOptions {
    let defaults = ExportOptions()
    return ExportOptions(
      language: lang ?? config.lang ?? defaults.language,
      csvEncoding: csvEncoding ?? config.csvEncoding ?? defaults.csvEncoding,
      chartTopN: config.chartTopN ?? defaults.chartTopN,
      csvHeaders: csvHeaders ?? config.csvHeaders ?? defaults.csvHeaders)
  }
}

/// `--csv-headers`, for the commands whose CSV files have header rows to translate (the
/// trend's CSV keeps its English columns).
struct CSVHeadersOption: ParsableArguments {
  @Option(
    name: .customLong("csv-headers"),
    help: "CSV header rows: en (default; scripts read them) or ko (Korean column titles).")
  var csvHeaders: CSVHeaders?
}
