/// Turns raw records into programs: pure and total — it never fails and never drops a record.
///
/// What could not be read is left empty and named in ``Program/qualityFlags``. Each field
/// has a parser of its own (``FeeParser``, ``CatalogDateParser``, ``CoordinateResolver``,
/// ``FreeFlagParser``, ``District``, ``ProgramID``); this type only combines them and
/// decides the flags.
public enum ProgramNormalizer {
  /// The normalised program of one raw record.
  ///
  /// - Text fields are trimmed of surrounding white space; absent or null ones are `""`.
  /// - `district` is one of the 25 자치구, else `미상` with `.districtMissing`.
  /// - `isFree` comes from 유무료; when that is empty or unrecognised (`.freeFlagMissing`)
  ///   the program is free only if its fee text says `무료` and quotes no amount.
  /// - Fees: `0…0` for a free program (`.freeButPriced` when its text still quotes an
  ///   amount above zero); otherwise the lowest and highest amount the text quotes, or none.
  /// - Dates: 시작일 and 종료일; when either is missing or unreadable, both come from
  ///   날짜/시간 (`.datesFromRangeText`). A date still missing after that gives
  ///   `.datesMissing`; an end before the start is kept and flagged `.endBeforeStart`.
  /// - Coordinates: see ``CoordinateResolver``.
  /// - `id`: `cult:NNNNNN` from the portal URL, else the hashed fallback (`.idFromHash`).
  public static func normalize(_ record: RawRecord) -> Program {
    var flags: QualityFlags = []
    if record.invalidBytesReplaced { flags.insert(.invalidBytesReplaced) }

    let title = text(record, .title)
    let place = text(record, .place)
    let feeText = text(record, .feeText)
    let portalURL = text(record, .portalURL)

    // District
    let districtText = text(record, .district)
    let district: String
    if let known = District.canonical(districtText) {
      district = known
    } else {
      district = District.unknown
      flags.insert(.districtMissing)
    }

    // Free flag and fees
    let fees = FeeParser.range(in: feeText)
    let isFree: Bool
    if let parsed = FreeFlagParser.parse(record[.isFree] ?? "") {
      isFree = parsed
    } else {
      flags.insert(.freeFlagMissing)
      isFree = (fees.map { $0.max <= 0 } ?? true) && FeeParser.saysFree(feeText)
    }
    let feeMin: Int?
    let feeMax: Int?
    if isFree {
      feeMin = 0
      feeMax = 0
      if let fees, fees.max > 0 { flags.insert(.freeButPriced) }
    } else {
      feeMin = fees?.min
      feeMax = fees?.max
    }

    // Dates
    var startDate = record[.startDate].flatMap(CatalogDateParser.day(from:))
    var endDate = record[.endDate].flatMap(CatalogDateParser.day(from:))
    if startDate == nil || endDate == nil,
      let range = record[.dateText].flatMap(CatalogDateParser.range(from:))
    {
      startDate = range.start
      endDate = range.end
      flags.insert(.datesFromRangeText)
    }
    if let start = startDate, let end = endDate {
      if end < start { flags.insert(.endBeforeStart) }
    } else {
      flags.insert(.datesMissing)
    }
    let registeredOn = record[.registeredOn].flatMap(CatalogDateParser.day(from:))

    // Coordinates
    let coordinates = CoordinateResolver.resolve(record[.coordinateA], record[.coordinateB])
    flags.formUnion(coordinates.flags)

    // Identity
    let id: String
    if let fromURL = ProgramID.fromPortalURL(portalURL) {
      id = fromURL
    } else {
      id = ProgramID.hashed(title: title, place: place, startDate: startDate)
      flags.insert(.idFromHash)
    }

    return Program(
      id: id, title: title, category: text(record, .category), district: district,
      place: place, organizer: text(record, .organizer), audience: text(record, .audience),
      feeText: feeText, isFree: isFree, feeMinKRW: feeMin, feeMaxKRW: feeMax,
      startDate: startDate, endDate: endDate, theme: text(record, .theme),
      latitude: coordinates.latitude, longitude: coordinates.longitude, portalURL: portalURL,
      orgLink: text(record, .orgLink), imageURL: text(record, .imageURL),
      registeredOn: registeredOn, qualityFlags: flags)
  }

  /// A trimmed text field; `""` when absent or null.
  @inline(__always)
  private static func text(_ record: RawRecord, _ field: CanonicalField) -> String {
    CatalogText.trimmed(record[field])
  }
}
