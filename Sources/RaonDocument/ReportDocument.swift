import Foundation
import RaonAnalytics
import RaonCore

/// What a job writes, composed once: the figures and the document made of them, in no
/// format. Every writer renders this value and nothing else; none reads the store.
///
/// ```swift
/// let document = ReportDocument.report(figures, options: DocumentOptions(language: .ko))
/// ```
public enum ReportDocument: Sendable {
  /// The weekly report (`raon report`).
  case report(WeeklyReport)
  /// Two snapshots compared (`raon diff`).
  case comparison(ComparisonReport)
  /// The weekly trend (`raon trend`).
  case trend(TrendReport)

  /// The document people read.
  public var document: Document {
    switch self {
    case .report(let r): return r.document
    case .comparison(let c): return c.document
    case .trend(let t): return t.document
    }
  }

  /// The weekly report of `figures`.
  public static func report(_ figures: ReportData, options: DocumentOptions) -> ReportDocument {
    .report(WeeklyReportComposer(figures: figures, options: options).compose())
  }

  /// Page 1 of the weekly report of `figures` alone (what a message carries), as the
  /// report's own page 1 says it.
  public static func pageOne(_ figures: ReportData, options: DocumentOptions) -> PageOne {
    let composer = WeeklyReportComposer(figures: figures, options: options)
    return composer.pageOne(charts: composer.charts())
  }

  /// The comparison of `from` with `to`.
  public static func comparison(
    _ diff: SnapshotDiff, from: SnapshotInfo, to: SnapshotInfo, options: DocumentOptions
  ) -> ReportDocument {
    .comparison(ChangesComposer.comparison(diff, from: from, to: to, options: options))
  }

  /// The weekly trend of `points` (oldest first).
  public static func trend(_ points: [WeeklyTrendPoint], options: DocumentOptions) -> ReportDocument {
    .trend(TrendComposer.report(points, labels: options.labels))
  }
}

/// The weekly report: its figures, page 1 (which a mail can carry alone), the whole
/// document, and the charts by name (what the workbook draws).
public struct WeeklyReport: Sendable {
  public var figures: ReportData
  public var pageOne: PageOne
  public var document: Document
  public var charts: WeeklyCharts
  public var options: DocumentOptions
}

/// The charts of a weekly report, by what they show. The document shows some of them
/// (``Document/charts``); the workbook draws each beside the table it comes from.
public struct WeeklyCharts: Sendable {
  public var byCategory, byDistrict, byFee, byDuration: Chart
  /// This week's running and current programs by district and by category.
  public var runningByDistrict, runningByCategory, currentByDistrict, currentByCategory: Chart
  /// The trend's chart (drawn also when it has no point).
  public var trend: Chart
}

/// Two snapshots compared: the changes, their kinds (D = `to`'s day) and the document.
public struct ComparisonReport: Sendable {
  public var diff: SnapshotDiff
  public var from: SnapshotInfo
  public var to: SnapshotInfo
  public var kinds: ChangeKinds
  public var document: Document
}

/// The weekly trend: its points, the document and the chart.
public struct TrendReport: Sendable {
  public var points: [WeeklyTrendPoint]
  public var document: Document
  public var chart: Chart
}

/// What a document says and how much of it, whatever it is rendered as.
public struct DocumentOptions: Sendable {
  public var language: ReportLanguage
  /// How many groups a chart shows before the rest is named in a note.
  public var chartTopN: Int
  /// Items listed per kind of change in a report before "외 N건".
  public var listLimit: Int
  /// Items listed per kind of change in a comparison's own document.
  public var comparisonListLimit: Int
  /// Categories given their own column in the category × district table; the rest are
  /// summed in one column (the CSV has the full table).
  public var crossTableCategories: Int
  /// The catalog reported on: its words (``ReportLabels/profile``) and extra tables.
  public var profile: CatalogProfile = .seoul
  /// Renames and mergers of regions the comparison found in the national data (said in
  /// 자료 정보, with the `raon.toml` lines that keep or refuse them).
  public var lineage: LineageNote?

  public init(
    language: ReportLanguage = .ko, chartTopN: Int = 10, listLimit: Int = 20, comparisonListLimit: Int = 100,
    crossTableCategories: Int = 6
  ) {
    self.language = language
    self.chartTopN = chartTopN
    self.listLimit = listLimit
    self.comparisonListLimit = comparisonListLimit
    self.crossTableCategories = crossTableCategories
  }

  public var labels: ReportLabels { ReportLabels(language, profile: profile) }
}
