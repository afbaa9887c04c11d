import Foundation
import RaonCore
import TestSupport

/// The real national download as an independent Python reading gives it
/// (Tests/RaonCLITests/Scripts/national_events.py): its rows, and for each row the key,
/// provider id and 시·도 the documented rules give. Read once for the suite.
struct NationalDownload: Sendable {
  let header: [String]
  let rows: [[String]]
  let keys: [String]
  let providers: [String]
  let provinces: [String]

  static let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/RaonCLITests/Scripts/national_events.py")

  static func read(_ url: URL = Fixtures.nationalCSV) throws -> NationalDownload {
    let result = try Python.run([script.path, "rows", url.path])
    guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
      let header = object["header"] as? [String], let rows = object["rows"] as? [[String]],
      let keys = object["keys"] as? [String], let providers = object["providers"] as? [String],
      let provinces = object["provinces"] as? [String]
    else {
      throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: result.stderr])
    }
    return NationalDownload(header: header, rows: rows, keys: keys, providers: providers, provinces: provinces)
  }

  /// The rows as raw records sharing one header.
  var records: [RawRecord] {
    let names = FieldNames(header)
    return rows.enumerated().map { i, row in
      RawRecord(names: names, values: row.map { Optional($0) }, location: SourceLocation(source: "national.csv", line: i + 2))
    }
  }
}
