import RaonCore

/// The youngest age a program admits, in bands: a key of the national report's age table,
/// read from 입장연령 (free text: "초등학생 이상", "8세 이상", "전체관람가", "48개월 이상", …).
///
/// The first age the text names decides: `N세`/`N살` (만 or not) is N years, `N개월` N/12;
/// 미취학·유아 are 0–6, 초등 7, 중학·청소년 13, 고등·고교 16, 대학·성인 19; an upper bound alone
/// (`7세 이하`, `12세 미만`) admits from birth. Everyone (전체, 제한없음, 누구나, 전연령, 연령무관)
/// is `all`; empty or unreadable text is `unknown`.
///
/// ```swift
/// AgeBand("초등학생 이상")   // .from7To12
/// AgeBand("48개월 이상")     // .upTo6
/// AgeBand("전체관람가")      // .all
/// ```
public enum AgeBand: String, CaseIterable, Sendable, Codable {
  case all = "all"
  case upTo6 = "0-6"
  case from7To12 = "7-12"
  case from13To18 = "13-18"
  case adults = "19+"
  case unknown = "unknown"

  public init(_ text: String) {
    let folded = TextKey.fold(text)
    if folded.isEmpty {
      self = .unknown
      return
    }
    if ["전체", "제한없음", "누구나", "전연령", "모든연령", "연령무관", "연령제한없음", "무관"].contains(where: { folded.contains($0) }) {
      self = .all
      return
    }
    if let years = Self.firstAge(in: folded) {
      self = Self.band(years: years)
      return
    }
    let words: [(String, Int)] = [
      ("영유아", 0), ("미취학", 0), ("유아", 3), ("초등", 7), ("중고", 13), ("중학", 13), ("중등", 13),
      ("청소년", 13), ("고등", 16), ("고교", 16), ("대학", 19), ("성인", 19), ("어른", 19),
    ]
    let found = words.compactMap { word, age in folded.range(of: word).map { ($0.lowerBound, age) } }
    if let first = found.min(by: { $0.0 < $1.0 }) {
      self = Self.band(years: first.1)
      return
    }
    self = .unknown
  }

  /// The band of a program (its `audience`, where the national data keeps 입장연령).
  public init(_ program: Program) { self.init(program.audience) }

  static func band(years: Int) -> AgeBand {
    switch years {
    case ..<7: return .upTo6
    case 7...12: return .from7To12
    case 13...18: return .from13To18
    default: return .adults
    }
  }

  /// The first `N세`, `N살` or `N개월` of a folded text, in years (0 when only an upper
  /// bound: `7세이하`, `12세미만`).
  static func firstAge(in folded: String) -> Int? {
    let scalars = Array(folded.unicodeScalars)
    var i = 0
    while i < scalars.count {
      guard scalars[i].properties.numericType == .decimal, scalars[i].isASCII else {
        i += 1
        continue
      }
      var n = 0
      while i < scalars.count, scalars[i].isASCII, let d = Int(String(scalars[i])) {
        n = n * 10 + d
        i += 1
        if n > 1_000 { break }
      }
      let rest = String(String.UnicodeScalarView(scalars[i...]))
      let years: Int
      if rest.hasPrefix("개월") {
        years = n / 12
      } else if rest.hasPrefix("세") || rest.hasPrefix("살") {
        years = n
      } else {
        continue
      }
      let after = String(rest.dropFirst(rest.hasPrefix("개월") ? 2 : 1))
      if after.hasPrefix("이하") || after.hasPrefix("미만") { return 0 }
      return years
    }
    return nil
  }
}
