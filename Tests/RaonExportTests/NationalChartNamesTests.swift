import Foundation
import RaonAnalytics
import RaonCore
import Testing

@testable import RaonDocument
@testable import RaonExport

/// A national report's chart files are named for what they chart (시·도 → `region`,
/// 제공기관 → `provider`), from the chart's description in the national data's words, in
/// every format that names a file; Seoul's keep their names (their bytes: the golden tests).
@Suite struct NationalChartNamesTests {
  let fixture = TextExportFixture.self

  static func options(_ catalog: CatalogProfile.Name, _ language: ReportLanguage = .ko) -> ExportOptions {
    var options = ExportOptions()
    options.profile = CatalogProfile.known(catalog)!
    options.language = language
    return options
  }

  @Test func nationalChartsAreNamedForWhatTheyChartAndSeoulsKeepTheirNames() throws {
    for language in [ReportLanguage.ko, .en] {
      let seoul = MarkdownReportWriter().render(fixture.report, options: Self.options(.seoul, language))
      let national = MarkdownReportWriter().render(fixture.report, options: Self.options(.national, language))
      let seoulPaths = seoul.charts.map(\.path), nationalPaths = national.charts.map(\.path)
      #expect(seoulPaths.contains("charts/by_category.svg") && seoulPaths.contains("charts/running_by_district.svg"))
      #expect(nationalPaths.count == seoulPaths.count && Set(nationalPaths).count == nationalPaths.count)
      for path in nationalPaths {
        #expect(!path.contains("category") && !path.contains("district"), "\(path)")
        // The Markdown links the file it writes.
        #expect(national.markdown.contains("](\(path))"), "\(path)")
      }
      #expect(Set(nationalPaths).isSuperset(of: ["charts/by_region.svg", "charts/by_provider.svg", "charts/running_by_region.svg"]))
      // A name says what the chart's title says it charts.
      let document = TestReport.weekly(fixture.report.figures, Self.options(.national, language)).document
      let (region, provider) = language == .ko ? ("시·도", "제공기관") : ("rovince", "rovider")
      for chart in document.charts {
        if chart.file.contains("region") { #expect(chart.title.contains(region), "\(chart.file): \(chart.title)") }
        if chart.file.contains("provider") { #expect(chart.title.contains(provider), "\(chart.file): \(chart.title)") }
      }
    }
  }
}
