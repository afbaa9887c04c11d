import RaonAnalytics
import RaonCore
import RaonDocument

/// How CSV files are encoded.
public enum CSVEncoding: String, CaseIterable, Sendable {
  /// UTF-8 with a byte-order mark: Korean Excel opens it correctly (the default).
  case utf8BOM = "utf8-bom"
  case utf8
  /// For old Excel installs; characters CP949 cannot hold are replaced and counted.
  case cp949
}

/// The language of the CSV files' header rows. English by default: scripts read the
/// headers by name. The values (keys, flag codes, `true`/`false`) never change.
public enum CSVHeaders: String, CaseIterable, Sendable {
  case en, ko
}

/// Choices shared by every writer.
public struct ExportOptions: Sendable {
  public var language: ReportLanguage
  public var csvEncoding: CSVEncoding
  /// How many groups charts show before the rest is summed as "other".
  public var chartTopN: Int
  /// The language of the CSV header rows (`--csv-headers`).
  public var csvHeaders: CSVHeaders
  /// The catalog reported on: its words (labels, file names, report.json keys) and its
  /// extra tables.
  public var profile: CatalogProfile = .seoul
  /// Renames and mergers of regions found in the national data (``DocumentOptions/lineage``).
  public var lineage: LineageNote?

  public init(
    language: ReportLanguage = .ko, csvEncoding: CSVEncoding = .utf8BOM, chartTopN: Int = 10,
    csvHeaders: CSVHeaders = .en
  ) {
    self.language = language
    self.csvEncoding = csvEncoding
    // Bounded so that no sum made from it can overflow, whoever builds the options.
    self.chartTopN = min(max(chartTopN, 0), Self.chartTopNLimit)
    self.csvHeaders = csvHeaders
  }

  /// The most groups a chart shows (the config allows up to 100).
  public static let chartTopNLimit = 1_000

  public var labels: ReportLabels { ReportLabels(language, profile: profile) }

  /// What the document says in these options (its language, the charts' top N, the catalog).
  public var document: DocumentOptions {
    var options = DocumentOptions(language: language, chartTopN: chartTopN)
    options.profile = profile
    options.lineage = lineage
    return options
  }
}

/// The options as a weekly run's keys record them (`WeeklyKeys`): stable from run to run,
/// and as they read before the profile replaced the catalog's name (a profile's own
/// description would list its dictionaries in a per-process order).
extension ExportOptions: CustomStringConvertible {
  public var description: String {
    "ExportOptions(language: RaonDocument.ReportLanguage.\(language), csvEncoding: RaonExport.CSVEncoding.\(csvEncoding), "
      + "chartTopN: \(chartTopN), csvHeaders: RaonExport.CSVHeaders.\(csvHeaders), "
      + "catalog: RaonCore.CatalogProfile.Name.\(profile.name))"
  }
}
