import RaonCore

/// The first few programs that carry each quality flag, in catalog (id) order: the examples
/// the document's data-quality section and the workbook's 데이터 품질 sheet show, by one
/// rule, chosen once in the figures' pass (``ReportAssembler``).
public struct QualityExamples: Sendable {
  /// Examples per flag every format shows: the one place this number is decided.
  public static let standardPerFlag = 3

  /// Examples kept per flag.
  public let perFlag: Int
  /// The flags wanted, by code, in ``QualityFlags/named`` order.
  private let wanted: [(flag: QualityFlags, name: String)]
  public private(set) var byFlag: [String: [Program]] = [:]
  private var filled = 0

  /// - Parameters:
  ///   - perFlag: Examples per flag (``standardPerFlag`` in every format).
  ///   - flags: The codes to collect; every flag when `nil`.
  public init(perFlag: Int = QualityExamples.standardPerFlag, flags: Set<String>? = nil) {
    self.perFlag = max(0, perFlag)
    wanted = QualityFlags.named.filter { flags?.contains($0.name) ?? true }
  }

  /// Whether every wanted flag has its examples (reading further changes nothing).
  public var isComplete: Bool { filled == wanted.count || perFlag == 0 }

  public mutating func add(_ p: Program) {
    guard !p.qualityFlags.isEmpty, !isComplete else { return }
    for (flag, name) in wanted where p.qualityFlags.contains(flag) {
      let list = byFlag[name, default: []]
      guard list.count < perFlag else { continue }
      byFlag[name] = list + [p]
      if list.count + 1 == perFlag { filled += 1 }
    }
  }

  /// The examples of one flag (empty when none).
  public subscript(code: String) -> [Program] { byFlag[code] ?? [] }
}
