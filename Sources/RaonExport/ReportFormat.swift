import CXlsxWriter
import RaonAnalytics
import RaonCore

/// The formats `raon report` can write.
public enum ReportFormat: String, CaseIterable, Sendable {
  case md, xlsx, csv, json
}
