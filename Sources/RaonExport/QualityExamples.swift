import RaonCore

/// The first few programs that carry each quality flag, in catalog order: the examples the
/// Markdown's data-quality section and the workbook's 데이터 품질 sheet show, by one rule.
///
/// Fed one program at a time, so each writer collects them in a pass it already makes
/// (the workbook while it writes its programs sheet; the Markdown in a scan it stops as
/// soon as ``isComplete``).
@usableFromInline
struct QualityExamples {
  /// Examples per flag both writers show: the one place this number is decided.
  @usableFromInline static let standardPerFlag = 3

  /// Examples kept per flag.
  let perFlag: Int
  /// The flags wanted, by code, in ``QualityFlags/named`` order.
  private let wanted: [(flag: QualityFlags, name: String)]
  private(set) var byFlag: [String: [Program]] = [:]
  private var filled = 0

  /// - Parameters:
  ///   - perFlag: Examples per flag (``standardPerFlag`` in both writers).
  ///   - flags: The codes to collect; every flag when `nil`.
  init(perFlag: Int, flags: Set<String>? = nil) {
    self.perFlag = max(0, perFlag)
    wanted = QualityFlags.named.filter { flags?.contains($0.name) ?? true }
  }

  /// Whether every wanted flag has its examples (reading further changes nothing).
  var isComplete: Bool { filled == wanted.count || perFlag == 0 }

  mutating func add(_ p: Program) {
    guard !p.qualityFlags.isEmpty, !isComplete else { return }
    for (flag, name) in wanted where p.qualityFlags.contains(flag) {
      let list = byFlag[name, default: []]
      guard list.count < perFlag else { continue }
      byFlag[name] = list + [p]
      if list.count + 1 == perFlag { filled += 1 }
    }
  }

  /// The examples of one flag (empty when none).
  subscript(code: String) -> [Program] { byFlag[code] ?? [] }
}
