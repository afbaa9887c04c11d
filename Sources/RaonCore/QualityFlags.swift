/// What was wrong with a record, or repaired in it, during normalisation.
///
/// A bit set, so a million programs carry their flags in eight bytes each; the names
/// (`end_before_start`, …) are the contract's, in a fixed order.
public struct QualityFlags: OptionSet, Sendable, Hashable, Codable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// The end date is before the start date (duration is then empty).
  public static let endBeforeStart = QualityFlags(rawValue: 1 << 0)
  /// 자치구 is empty or not one of the 25 districts (district is `미상`).
  public static let districtMissing = QualityFlags(rawValue: 1 << 1)
  /// Coordinates are missing or unreadable.
  public static let coordsMissing = QualityFlags(rawValue: 1 << 2)
  /// Coordinates are readable but not in Seoul.
  public static let coordsOutsideSeoul = QualityFlags(rawValue: 1 << 3)
  /// 유무료 says free, yet the fee text quotes an amount in won.
  public static let freeButPriced = QualityFlags(rawValue: 1 << 4)
  /// 시작일/종료일 were missing or destroyed; dates were read from 날짜/시간.
  public static let datesFromRangeText = QualityFlags(rawValue: 1 << 5)
  /// The source had invalid bytes here; they were replaced with U+FFFD.
  public static let invalidBytesReplaced = QualityFlags(rawValue: 1 << 6)
  /// No start or end date could be read at all.
  public static let datesMissing = QualityFlags(rawValue: 1 << 7)
  /// The portal URL had no cultcode; the id is the hashed fallback.
  public static let idFromHash = QualityFlags(rawValue: 1 << 8)
  /// 유무료 was empty or unrecognised (treated as paid unless the fee text says free).
  public static let freeFlagMissing = QualityFlags(rawValue: 1 << 9)
  /// A text held characters no writer can carry (controls, U+FFFE/U+FFFF; see
  /// ``SafeText``); they were replaced with U+FFFD.
  public static let invalidCharactersReplaced = QualityFlags(rawValue: 1 << 10)
  /// Readable coordinates outside Korea (the national data).
  public static let coordsOutsideKorea = QualityFlags(rawValue: 1 << 11)
  /// 요금정보 says 유료, yet 관람요금 quotes no amount above zero and says 무료 or `0`.
  public static let paidButFree = QualityFlags(rawValue: 1 << 12)
  /// The event has two rows identical in every column (the national data).
  public static let duplicateRow = QualityFlags(rawValue: 1 << 13)
  /// The provider is not a local government and no 시·도 can be read from the address:
  /// counted under 기타 기관 (the national data).
  public static let regionUnknown = QualityFlags(rawValue: 1 << 14)
  /// 데이터기준일자 is more than a year before the report's day (the national data; set by
  /// the analysis for the day it reports on, never stored).
  public static let referenceDateStale = QualityFlags(rawValue: 1 << 15)
  /// The end date cannot be meant (``ImplausibleEnd``): left empty, kept in the original field.
  public static let endDateImplausible = QualityFlags(rawValue: 1 << 16)
  /// Not free, and the fee text names no amount: `홈페이지 참조`, `회차별 상이`.
  public static let feeWithoutAmount = QualityFlags(rawValue: 1 << 17)

  /// Every flag with its contract name, in output order.
  public static let named: [(flag: QualityFlags, name: String)] = [
    (.endBeforeStart, "end_before_start"),
    (.districtMissing, "district_missing"),
    (.coordsMissing, "coords_missing"),
    (.coordsOutsideSeoul, "coords_outside_seoul"),
    (.freeButPriced, "free_but_priced"),
    (.datesFromRangeText, "dates_from_range_text"),
    (.invalidBytesReplaced, "invalid_bytes_replaced"),
    (.datesMissing, "dates_missing"),
    (.idFromHash, "id_from_hash"),
    (.freeFlagMissing, "free_flag_missing"),
    (.invalidCharactersReplaced, "invalid_characters_replaced"),
    (.coordsOutsideKorea, "coords_outside_korea"),
    (.paidButFree, "paid_but_free"),
    (.duplicateRow, "duplicate_row"),
    (.regionUnknown, "region_unknown"),
    (.referenceDateStale, "reference_date_stale"),
    (.endDateImplausible, "end_date_implausible"),
    (.feeWithoutAmount, "fee_without_amount"),
  ]

  /// The names of the flags set, in output order.
  public var names: [String] { Self.named.filter { contains($0.flag) }.map(\.name) }

  /// `;`-separated names, as in `programs.csv`.
  public var joinedNames: String { names.joined(separator: ";") }

  /// Parses `a;b;c`; unknown names are ignored.
  public init(joinedNames: String) {
    var flags: QualityFlags = []
    for part in joinedNames.split(separator: ";") {
      if let f = Self.named.first(where: { $0.name == part })?.flag { flags.insert(f) }
    }
    self = flags
  }
}
