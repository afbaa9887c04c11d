import RaonCore
import RaonDocument

/// The header rows of a report's CSV files and the files' names, column for column with the
/// contract's (``CSVReportWriter``): the catalog's own Korean headers when it fixes them
/// (``CatalogWords/files``: the national data's, which a person opens in Excel), else the
/// contract's English names, or with `--csv-headers ko` the Korean report's words.
struct CSVHeaderRows {
  /// The programs' file (`programs.csv`, `events.csv`), its columns and their headers.
  var programsFile: String
  var programs: [(column: ProgramColumn, header: String)]
  /// `by_<group>.csv` and `by_<region>.csv`.
  var byGroup: [String]
  var byRegion: [String]
  var byFee: [String]
  var byDuration: [String]
  /// `<group>_by_<region>.csv`: the first and last header around the regions.
  var crossFirst: String
  var crossTotal: String
  var changes: [String]
  /// 항목 holds a changed field's label, and its code is the last column.
  var labelsFields: Bool
  /// `by_category.csv`, `by_district.csv`, `category_by_district.csv` in the catalog's words.
  var groupFile: String
  var regionFile: String
  var crossFile: String

  init(_ options: ExportOptions) {
    let words = options.profile.words
    let files = words.files
    programsFile = files.csv.programs
    groupFile = "by_\(files.group).csv"
    regionFile = "by_\(files.region).csv"
    crossFile = "\(files.group)_by_\(files.region).csv"
    labelsFields = files.labelsChangedFields
    if let fixed = files.csv.headers {
      programs = fixed.programs
      byGroup = [fixed.group] + fixed.groupFigures
      byRegion = [fixed.region] + fixed.groupFigures
      (byFee, byDuration) = (fixed.fee, fixed.duration)
      (crossFirst, crossTotal) = (fixed.crossFirst, fixed.crossTotal)
      changes = fixed.changes
    } else if options.csvHeaders == .ko {
      let ko = ReportLabels(.ko, profile: options.profile)
      programs = ProgramColumn.allCases.map { ($0, ko.columnTitle($0)) }
      func groups(_ key: String) -> [String] {
        [key, ko.count, ko.free, ko.paid, ko.medianDurationDays, ko.medianFeeMinKrw, ko.share, ko.freeUnknown]
      }
      (byGroup, byRegion) = (groups(ko.category), groups(ko.district))
      byFee = ["요금대 코드", ko.count, ko.feeBand]
      byDuration = ["기간 코드", ko.count, ko.durationBand]
      (crossFirst, crossTotal) = (ko.category, ko.total)
      changes = [
        "구분", ko.id, ko.title, ko.field, ko.oldValue, ko.newValue, ko.category, ko.district,
        ko.columnTitle(.startDate), ko.columnTitle(.endDate), ko.changeKindTitle, ko.minor,
      ]
    } else {
      programs = ProgramColumn.allCases.map { ($0, $0.name) }
      (byGroup, byRegion) = (CSVReportWriter.groupColumns, CSVReportWriter.groupColumns)
      (byFee, byDuration) = (CSVReportWriter.bandColumns, CSVReportWriter.bandColumns)
      (crossFirst, crossTotal) = ("category", "total")
      changes = CSVReportWriter.changeColumns
    }
  }
}
