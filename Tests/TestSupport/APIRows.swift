import RaonCore

/// Converts raw records (e.g. the sample CSV's) into Open API rows with upper-case keys,
/// for ``LoopbackAPIServer``.
public enum APIRows {
  /// The Open API's key for each field the portal CSV carries. Written out here rather
  /// than taken from RaonIngest so the tests' server does not share the code under test.
  public static let keyByField: [CanonicalField: String] = [
    .category: "CODENAME", .district: "GUNAME", .title: "TITLE", .dateText: "DATE",
    .place: "PLACE", .organizer: "ORG_NAME", .audience: "USE_TRGT", .feeText: "USE_FEE",
    .performers: "PLAYER", .programDescription: "PROGRAM", .otherInfo: "ETC_DESC",
    .orgLink: "ORG_LINK", .imageURL: "MAIN_IMG", .registeredOn: "RGSTDATE",
    .ticket: "TICKET", .startDate: "STRTDATE", .endDate: "END_DATE", .theme: "THEMECODE",
    .coordinateA: "LAT", .coordinateB: "LOT", .isFree: "IS_FREE", .portalURL: "HMPG_ADDR",
  ]

  /// One API row per record: every mapped field, empty string when absent.
  public static func from(_ records: [RawRecord]) -> [[String: String]] {
    records.map { record in
      var row: [String: String] = [:]
      for (field, key) in keyByField { row[key] = record[field] ?? "" }
      return row
    }
  }
}
