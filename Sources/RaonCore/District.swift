import Foundation

/// Seoul's 25 autonomous districts (자치구) and the canonical spelling of each.
public enum District {
  /// The value used when a record's district is empty or not recognised.
  public static let unknown = "미상"

  /// The 25 districts in 가나다 order.
  public static let all: [String] = [
    "강남구", "강동구", "강북구", "강서구", "관악구", "광진구", "구로구", "금천구", "노원구",
    "도봉구", "동대문구", "동작구", "마포구", "서대문구", "서초구", "성동구", "성북구", "송파구",
    "양천구", "영등포구", "용산구", "은평구", "종로구", "중구", "중랑구",
  ]

  /// Each district under its own name. Swift's `String` equality and hashing follow
  /// canonical equivalence, so a decomposed (NFD) name finds its entry too — and the entry
  /// gives back the composed (NFC) spelling, the one folder names and reports must use.
  private static let known = Dictionary(uniqueKeysWithValues: all.map { ($0, $0) })

  /// The district a user named exactly (in any Unicode normalisation form), in its
  /// canonical NFC spelling; `nil` when it is not one of the 25.
  public static func named(_ name: String) -> String? { known[name] }

  /// The canonical district for a source value, or `nil` when it is not one of the 25.
  ///
  /// Accepts surrounding spaces, a `서울특별시`/`서울시`/`서울` prefix, and the name without
  /// its `구` suffix (`강남` → `강남구`), which other sources of the same data use.
  public static func canonical(_ text: String) -> String? {
    // Fast path: the portal's own spelling, as almost every record has it.
    if let name = known[text] { return name }
    if text.isEmpty { return nil }
    var t = text.trimmingCharacters(in: .whitespacesAndNewlines)
    for prefix in ["서울특별시", "서울시", "서울"] where t.hasPrefix(prefix) {
      t = String(t.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
      break
    }
    t = t.replacingOccurrences(of: " ", with: "")
    if let name = known[t] { return name }
    if !t.isEmpty, !t.hasSuffix("구"), let name = known[t + "구"] { return name }
    return nil
  }
}
