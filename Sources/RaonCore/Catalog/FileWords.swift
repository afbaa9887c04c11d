/// How a catalog names its files and the keys inside them: the region and the group in a
/// table's name (`by_district.csv`, `by_region.csv`; `runningByDistrict`,
/// `runningByRegion`), the programs' file, its packs' folder, and CSV headers a person
/// opens in Excel.
public struct FileWords: Sendable {
  /// The region in a file's name (`by_district.svg`, `category_by_district.csv`).
  public var region: String
  /// The group in a file's name (`by_category.svg`).
  public var group: String
  /// The region in a JSON key, capitalised (`byDistrict`, `runningByRegion`); in lower
  /// case it is a pack's own key (`district`, `region`).
  public var jsonRegion: String
  /// The group in a JSON key, capitalised (`byCategory`, `byProvider`).
  public var jsonGroup: String
  /// `report.json` opens with `catalog` (the profile's name) and `unit` (what it counts).
  public var jsonNamesCatalog: Bool
  /// A changed field is named for people too: `changes.json` gives its `label` after its
  /// code, `changes.csv` holds the label under 항목 and the code in the last column. For a
  /// catalog whose comparison names fields by their meaning (`feeText`), not by a
  /// `programs.csv` column.
  public var labelsChangedFields: Bool
  /// The folder of a report's packs (`districts`, `regions`), and of a site's page per
  /// region.
  public var packFolder: String
  /// The folder of a site's page per group, for a catalog whose groups are places or
  /// bodies a reader looks up (the national data's providers: `providers`); `nil`: no such
  /// pages (Seoul's categories).
  public var groupFolder: String?
  /// The CSV files.
  public var csv: CSVWords

  public init(
    region: String, group: String, jsonRegion: String, jsonGroup: String, jsonNamesCatalog: Bool,
    labelsChangedFields: Bool, packFolder: String, groupFolder: String? = nil, csv: CSVWords
  ) {
    self.region = region
    self.group = group
    self.jsonRegion = jsonRegion
    self.jsonGroup = jsonGroup
    self.jsonNamesCatalog = jsonNamesCatalog
    self.labelsChangedFields = labelsChangedFields
    self.packFolder = packFolder
    self.groupFolder = groupFolder
    self.csv = csv
  }
}

/// A catalog's CSV files: the programs' file and, when the catalog fixes them, its Korean
/// headers (else `--csv-headers` chooses between the contract's English and Korean).
public struct CSVWords: Sendable {
  /// `programs.csv`, `events.csv`.
  public var programs: String
  /// Headers that do not depend on `--csv-headers`.
  public var headers: FixedCSVHeaders?

  public init(programs: String, headers: FixedCSVHeaders?) {
    self.programs = programs
    self.headers = headers
  }
}

/// Fixed CSV headers, column for column with the contract's.
public struct FixedCSVHeaders: Sendable {
  /// The programs' file: the columns written, each with its header.
  public var programs: [(column: ProgramColumn, header: String)]
  /// `by_<region>.csv` and `by_<group>.csv` after their key's header: count, free, paid,
  /// medians, share, unknown.
  public var groupFigures: [String]
  /// The key's header in the region's and the group's files.
  public var region: String
  public var group: String
  /// `by_fee.csv` and `by_duration.csv`: key, count, label.
  public var fee: [String]
  public var duration: [String]
  /// The cross table's first and last header around the regions.
  public var crossFirst: String
  public var crossTotal: String
  /// `changes.csv`.
  public var changes: [String]

  public init(
    programs: [(column: ProgramColumn, header: String)], groupFigures: [String], region: String, group: String,
    fee: [String], duration: [String], crossFirst: String, crossTotal: String, changes: [String]
  ) {
    self.programs = programs
    self.groupFigures = groupFigures
    self.region = region
    self.group = group
    self.fee = fee
    self.duration = duration
    self.crossFirst = crossFirst
    self.crossTotal = crossTotal
    self.changes = changes
  }
}

/// A table a catalog's report adds to the whole catalog's statistics: what it counts by
/// (``Measure``), its bands in order with their names, and its names in each format.
/// The national data's 요금정보 and 입장연령 are two.
public struct ReportExtra: Sendable {
  /// What a program is counted by (RaonAnalytics counts each).
  public enum Measure: Sendable, Hashable {
    /// The kind of fee (무료, 유료, 혼합) in `theme` (the national data's 요금정보).
    case feeKind
    /// The youngest age admitted, in bands, read from `audience` (입장연령).
    case admissionAge
  }

  public var measure: Measure
  /// The key in `report.json` (`byFeeKind`).
  public var jsonKey: String
  /// The CSV file (`by_fee_kind.csv`) and its header (code, count, name).
  public var csvFile: String
  public var csvHeader: [String]
  /// The table's heading and sheet (`요금정보별`) and its key column's header (`요금정보`).
  public var title: CatalogWords.Phrase
  public var header: CatalogWords.Phrase
  /// Every band, in order: its key and its name.
  public var bands: [(key: String, name: CatalogWords.Phrase)]

  public init(
    measure: Measure, jsonKey: String, csvFile: String, csvHeader: [String], title: CatalogWords.Phrase,
    header: CatalogWords.Phrase, bands: [(key: String, name: CatalogWords.Phrase)]
  ) {
    self.measure = measure
    self.jsonKey = jsonKey
    self.csvFile = csvFile
    self.csvHeader = csvHeader
    self.title = title
    self.header = header
    self.bands = bands
  }

  /// A band's name, or its key when the extra has no such band.
  public func name(of key: String) -> CatalogWords.Phrase {
    bands.first { $0.key == key }?.name ?? CatalogWords.Phrase(key, key)
  }
}
