import RaonCore
import RaonDocument

extension Int {
  /// `12,345` — grouping with commas, independent of the machine's locale (``NumberText``,
  /// the document's own rule).
  func formatted() -> String { NumberText.grouped(self) }
}
