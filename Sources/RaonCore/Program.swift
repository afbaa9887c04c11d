/// One cultural program, normalised: a row of `csv/programs.csv`.
///
/// Built from a ``RawRecord`` by ``ProgramNormalizer``; the raw record is kept beside it
/// in the store, so nothing the source said is lost.
public struct Program: Sendable, Hashable, Codable {
  /// `cult:NNNNNN` from the portal URL's `cultcode`, else `h:` + 16 hex digits of SHA-256.
  public var id: String
  public var title: String
  public var category: String
  /// One of the 25 자치구, or `미상`.
  public var district: String
  public var place: String
  public var organizer: String
  public var audience: String
  public var feeText: String
  /// 유무료: free, paid, or `nil` when the source says neither and its fee text is not
  /// unambiguous (catalogs before 2024 have no 유무료 column).
  public var isFree: Bool?
  public var feeMinKRW: Int?
  public var feeMaxKRW: Int?
  public var startDate: CalendarDay?
  public var endDate: CalendarDay?
  public var theme: String
  public var latitude: Double?
  public var longitude: Double?
  public var portalURL: String
  public var orgLink: String
  public var imageURL: String
  public var registeredOn: CalendarDay?
  public var qualityFlags: QualityFlags
  /// 문의 / INQUIRY (2026 on; empty in earlier files).
  public var inquiry: String
  /// 행사시간 / 공연시간 / PRO_TIME (2026 on; empty in earlier files).
  public var eventTime: String

  public init(
    id: String, title: String = "", category: String = "", district: String = District.unknown,
    place: String = "", organizer: String = "", audience: String = "", feeText: String = "",
    isFree: Bool? = false, feeMinKRW: Int? = nil, feeMaxKRW: Int? = nil,
    startDate: CalendarDay? = nil, endDate: CalendarDay? = nil, theme: String = "",
    latitude: Double? = nil, longitude: Double? = nil, portalURL: String = "",
    orgLink: String = "", imageURL: String = "", registeredOn: CalendarDay? = nil,
    qualityFlags: QualityFlags = [], inquiry: String = "", eventTime: String = ""
  ) {
    self.id = id
    self.title = title
    self.category = category
    self.district = district
    self.place = place
    self.organizer = organizer
    self.audience = audience
    self.feeText = feeText
    self.isFree = isFree
    self.feeMinKRW = feeMinKRW
    self.feeMaxKRW = feeMaxKRW
    self.startDate = startDate
    self.endDate = endDate
    self.theme = theme
    self.latitude = latitude
    self.longitude = longitude
    self.portalURL = portalURL
    self.orgLink = orgLink
    self.imageURL = imageURL
    self.registeredOn = registeredOn
    self.qualityFlags = qualityFlags
    self.inquiry = inquiry
    self.eventTime = eventTime
  }

  /// `end - start + 1`; `nil` when a date is missing or the end is before the start.
  public var durationDays: Int? {
    guard let s = startDate, let e = endDate, e >= s else { return nil }
    return e - s + 1
  }
}

extension Program {
  /// The columns of `csv/programs.csv`, in contract order (``ProgramColumn``).
  public static let csvColumns: [String] = ProgramColumn.allCases.map(\.name)

  /// The values of the contract columns, as text (empty for absent values).
  public var csvValues: [String] { ProgramColumn.allCases.map { $0.text(of: self) } }

  /// Coordinates are written as the shortest text that reads back as the same Double.
  public static func formatCoordinate(_ value: Double) -> String { "\(value)" }
}
