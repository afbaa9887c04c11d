import Foundation

/// The catalog download bundled with Raon (서울시 문화행사 정보, taken 2024-09-09).
public enum SampleCatalog {
  public static let fileName = "seoul-cultural-events-2024-09-09.cp949.csv"

  /// When the sample was taken: 2024-09-09 00:00 in Korea.
  public static let takenAt = Date(timeIntervalSince1970: 1_725_807_600)

  /// The bundled file, shipped as a resource of this module.
  public static var url: URL? {
    Bundle.module.url(forResource: "sample/" + fileName.replacingOccurrences(of: ".csv", with: ""), withExtension: "csv")
      ?? Bundle.module.resourceURL?.appendingPathComponent("sample/\(fileName)")
  }
}
