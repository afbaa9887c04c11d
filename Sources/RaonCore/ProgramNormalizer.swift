/// Turns raw records of a catalog read record by record (``CatalogProfile/seoul``, any
/// ``CatalogProfile/Normalisation/perRecord`` profile) into programs: pure
/// and total — it never fails and never drops a record.
///
/// What could not be read is left empty and named in ``Program/qualityFlags``. Each field
/// has a parser of its own (``FeeParser``, ``CatalogDateParser``, ``CoordinateResolver``,
/// ``FreeFlagParser``, ``District``, ``ProgramID``); this type only combines them and
/// decides the flags.
public enum ProgramNormalizer {
  /// The normalised program of one raw record.
  ///
  /// - Text fields are trimmed of surrounding white space; absent or null ones are `""`.
  ///   Characters no writer can carry (controls, U+FFFE/U+FFFF) become U+FFFD
  ///   (`.invalidCharactersReplaced`), so every output gets clean text.
  /// - `district` is one of the profile's regions (Seoul's 25 자치구), else its unknown value
  ///   (`미상`) with `.districtMissing`.
  /// - `isFree` comes from 유무료; when that is absent, empty or unrecognised
  ///   (`.freeFlagMissing`) it is read from the fee text only when that is unambiguous —
  ///   `무료` and no amount above zero: free; an amount above zero and no `무료`: paid —
  ///   and is otherwise unknown (`nil`).
  /// - Fees: `0…0` for a free program (`.freeButPriced` when its text still quotes an
  ///   amount above zero); otherwise the lowest and highest amount the text quotes, or none
  ///   (`.feeWithoutAmount` when a text is there: `홈페이지 참조`).
  /// - Dates: 시작일 and 종료일; when either is missing or unreadable, both come from
  ///   날짜/시간 (`.datesFromRangeText`). A date still missing after that gives
  ///   `.datesMissing`; an end before the start is kept and flagged `.endBeforeStart`; an
  ///   end no one can mean (``ImplausibleEnd``) is left empty, `.endDateImplausible`.
  /// - Coordinates: see ``CoordinateResolver``.
  /// - `id`: `cult:NNNNNN` from the portal URL, else the hashed fallback (`.idFromHash`).
  public static func normalize(_ record: RawRecord) -> Program {
    normalize(record, profile: .seoul)
  }

  /// The normalised program of one raw record of `profile`'s catalog (its regions, its
  /// coordinate box), as ``normalize(_:)`` does for Seoul's.
  public static func normalize(_ record: RawRecord, profile: CatalogProfile) -> Program {
    // The record's columns, fetched once: every field below is read through them.
    let names = record.names
    let values = record.values
    func field(_ field: CanonicalField) -> String? {
      guard let i = names.index(of: field) else { return nil }
      return values[i]
    }
    var flags: QualityFlags = []
    func text(_ field: CanonicalField) -> String {
      guard let i = names.index(of: field), let value = values[i] else { return "" }
      let trimmed = CatalogText.trimmed(value)
      guard let clean = SafeText.cleaned(trimmed) else { return trimmed }
      flags.insert(.invalidCharactersReplaced)
      return clean
    }

    if record.invalidBytesReplaced { flags.insert(.invalidBytesReplaced) }

    let title = text(.title)
    let place = text(.place)
    let feeText = text(.feeText)
    let portalURL = text(.portalURL)

    // District
    let districtText = text(.district)
    let district: String
    if let known = profile.regions.canonical(districtText) {
      district = known
    } else {
      district = profile.regions.unknown
      flags.insert(.districtMissing)
    }

    // Free flag and fees
    let fees = FeeParser.range(in: feeText)
    let isFree: Bool?
    if let parsed = FreeFlagParser.parse(field(.isFree) ?? "") {
      isFree = parsed
    } else {
      flags.insert(.freeFlagMissing)
      isFree = FreeFlagParser.fromFeeText(saysFree: FeeParser.saysFree(feeText), highestAmount: fees?.max)
    }
    let feeMin: Int?
    let feeMax: Int?
    if isFree == true {
      feeMin = 0
      feeMax = 0
      if let fees, fees.max > 0 { flags.insert(.freeButPriced) }
    } else {
      feeMin = fees?.min
      feeMax = fees?.max
      if FeeParser.statesNoAmount(feeText, amounts: fees) { flags.insert(.feeWithoutAmount) }
    }

    // Dates
    var startDate = field(.startDate).flatMap(CatalogDateParser.day(from:))
    var endDate = field(.endDate).flatMap(CatalogDateParser.day(from:))
    if startDate == nil || endDate == nil,
      let range = field(.dateText).flatMap(CatalogDateParser.range(from:))
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
    if ImplausibleEnd.isImplausible(start: startDate, end: endDate) {
      endDate = nil
      flags.insert(.endDateImplausible)
    }
    let registeredOn = field(.registeredOn).flatMap(CatalogDateParser.day(from:))

    // Coordinates
    let coordinates = CoordinateResolver.resolve(
      field(.coordinateA), field(.coordinateB), within: profile.coordinates)
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
      id: id, title: title, category: text(.category), district: district,
      place: place, organizer: text(.organizer), audience: text(.audience),
      feeText: feeText, isFree: isFree, feeMinKRW: feeMin, feeMaxKRW: feeMax,
      startDate: startDate, endDate: endDate, theme: text(.theme),
      latitude: coordinates.latitude, longitude: coordinates.longitude, portalURL: portalURL,
      orgLink: text(.orgLink), imageURL: text(.imageURL),
      registeredOn: registeredOn, qualityFlags: flags, inquiry: text(.inquiry),
      eventTime: text(.programTime))
  }
}
