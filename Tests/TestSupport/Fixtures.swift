import Foundation

/// Paths to the repository's files, for tests.
public enum Fixtures {
  /// The repository's root directory.
  public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The bundled sample catalog (CP949 CSV, 4,998 programs, taken 2024-09-09).
  public static var sampleCSV: URL {
    repositoryRoot.appendingPathComponent(
      "Sources/RaonWorkflow/Resources/sample/seoul-cultural-events-2024-09-09.cp949.csv")
  }

  /// One real download of the national standard data (CP949 CSV, 7,617 rows, 222
  /// providers, newest 데이터기준일자 2025-03-31).
  public static var nationalCSV: URL {
    repositoryRoot.appendingPathComponent("data/national/national-performance-events-2025-03.cp949.csv")
  }

  /// A new empty directory under the system's temporary directory.
  public static func temporaryDirectory(_ label: String = "raon-test") throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
