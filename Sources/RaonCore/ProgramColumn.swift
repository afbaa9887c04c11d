/// The columns of a normalised program, in `csv/programs.csv` order: the one table that
/// every writer, the field-by-field comparison and the labels read.
///
/// A column's name is its `programs.csv` header (the contract); its titles are what a person
/// reads (workbook headers, Markdown, change lists); its cell is the program's value, typed,
/// so that the CSV writes text, the workbook numbers, dates and links, from the same rule.
///
/// ```swift
/// for column in ProgramColumn.allCases { print(column.name, column.text(of: program)) }
/// ```
public enum ProgramColumn: String, CaseIterable, Sendable {
  case id
  case title
  case category
  case district
  case place
  case organizer
  case audience
  case feeText = "fee_text"
  case isFree = "is_free"
  case feeMinKRW = "fee_min_krw"
  case feeMaxKRW = "fee_max_krw"
  case startDate = "start_date"
  case endDate = "end_date"
  case durationDays = "duration_days"
  case theme
  case latitude
  case longitude
  case portalURL = "portal_url"
  case orgLink = "org_link"
  case imageURL = "image_url"
  case registeredOn = "registered_on"
  case qualityFlags = "quality_flags"
  /// 문의 and 행사시간: the 2026 layout's two new fields, appended so earlier columns keep
  /// their places (empty for earlier files).
  case inquiry
  case eventTime = "event_time"

  /// What kind of value a column holds, which decides how each format writes it.
  public enum Kind: Sendable {
    case text, link, freeFlag, integer, day, coordinate, flags
  }

  /// One program's value in a column.
  public enum Cell: Sendable, Equatable {
    case text(String)
    /// A URL (written as a hyperlink where the format has them).
    case link(String)
    /// `nil`: unknown (written empty in CSV, `null` in JSON).
    case freeFlag(Bool?)
    case integer(Int?)
    case day(CalendarDay?)
    case coordinate(Double?)
    case flags(QualityFlags)
  }

  /// The `programs.csv` header.
  public var name: String { rawValue }

  public var kind: Kind {
    switch self {
    case .portalURL, .orgLink, .imageURL: return .link
    case .isFree: return .freeFlag
    case .feeMinKRW, .feeMaxKRW, .durationDays: return .integer
    case .startDate, .endDate, .registeredOn: return .day
    case .latitude, .longitude: return .coordinate
    case .qualityFlags: return .flags
    default: return .text
    }
  }

  /// The title a Korean reader sees (the portal's own labels where it has one).
  public var koreanTitle: String {
    switch self {
    case .id: return "ID"
    case .title: return "공연/행사명"
    case .category: return "분류"
    case .district: return "자치구"
    case .place: return "장소"
    case .organizer: return "기관명"
    case .audience: return "이용대상"
    case .feeText: return "이용요금"
    case .isFree: return "유무료"
    case .feeMinKRW: return "최저요금(원)"
    case .feeMaxKRW: return "최고요금(원)"
    case .startDate: return "시작일"
    case .endDate: return "종료일"
    case .durationDays: return "기간(일)"
    case .theme: return "테마분류"
    case .latitude: return "위도"
    case .longitude: return "경도"
    case .portalURL: return "문화포털 주소"
    case .orgLink: return "기관 홈페이지"
    case .imageURL: return "대표이미지"
    case .registeredOn: return "신청일"
    case .qualityFlags: return "품질 표시"
    case .inquiry: return "문의"
    case .eventTime: return "행사시간"
    }
  }

  public var englishTitle: String {
    switch self {
    case .id: return "ID"
    case .title: return "Title"
    case .category: return "Category"
    case .district: return "District"
    case .place: return "Place"
    case .organizer: return "Organizer"
    case .audience: return "Audience"
    case .feeText: return "Fee"
    case .isFree: return "Free/paid"
    case .feeMinKRW: return "Min. fee (KRW)"
    case .feeMaxKRW: return "Max. fee (KRW)"
    case .startDate: return "Start date"
    case .endDate: return "End date"
    case .durationDays: return "Duration (days)"
    case .theme: return "Theme"
    case .latitude: return "Latitude"
    case .longitude: return "Longitude"
    case .portalURL: return "Portal URL"
    case .orgLink: return "Organizer link"
    case .imageURL: return "Image URL"
    case .registeredOn: return "Registered on"
    case .qualityFlags: return "Quality flags"
    case .inquiry: return "Inquiry"
    case .eventTime: return "Event time"
    }
  }

  /// The column whose `programs.csv` header is `name`.
  public init?(name: String) { self.init(rawValue: name) }

  /// The program's value in this column.
  @inline(__always)
  public func cell(of p: Program) -> Cell {
    switch self {
    case .id: return .text(p.id)
    case .title: return .text(p.title)
    case .category: return .text(p.category)
    case .district: return .text(p.district)
    case .place: return .text(p.place)
    case .organizer: return .text(p.organizer)
    case .audience: return .text(p.audience)
    case .feeText: return .text(p.feeText)
    case .isFree: return .freeFlag(p.isFree)
    case .feeMinKRW: return .integer(p.feeMinKRW)
    case .feeMaxKRW: return .integer(p.feeMaxKRW)
    case .startDate: return .day(p.startDate)
    case .endDate: return .day(p.endDate)
    case .durationDays: return .integer(p.durationDays)
    case .theme: return .text(p.theme)
    case .latitude: return .coordinate(p.latitude)
    case .longitude: return .coordinate(p.longitude)
    case .portalURL: return .link(p.portalURL)
    case .orgLink: return .link(p.orgLink)
    case .imageURL: return .link(p.imageURL)
    case .registeredOn: return .day(p.registeredOn)
    case .qualityFlags: return .flags(p.qualityFlags)
    case .inquiry: return .text(p.inquiry)
    case .eventTime: return .text(p.eventTime)
    }
  }

  /// The program's value as `programs.csv` writes it (empty for an absent value).
  public func text(of p: Program) -> String { cell(of: p).text }
}

extension ProgramColumn.Cell {
  /// The value as `programs.csv` writes it: `true`/`false` (empty when unknown), integers, `YYYY-MM-DD`,
  /// coordinates as the shortest text that reads back as the same number, flag names
  /// joined with `;`, empty for an absent value.
  public var text: String {
    switch self {
    case .text(let s), .link(let s): return s
    case .freeFlag(let free): return free.map { $0 ? "true" : "false" } ?? ""
    case .integer(let v): return v.map(String.init) ?? ""
    case .day(let d): return d?.description ?? ""
    case .coordinate(let v): return v.map(Program.formatCoordinate) ?? ""
    case .flags(let f): return f.joinedNames
    }
  }
}
