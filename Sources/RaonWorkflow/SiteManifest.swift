import Foundation
import RaonExport

/// What a site remembers of how it was built, in `.raon-site.json`: per week the inputs
/// of its report (snapshot, compared snapshot, trend points, formats) and each of its files
/// with its size and SHA-256, per program its page's size and SHA-256.
///
/// A rebuild reuses an earlier file only when it is, where it stands, the regular file
/// recorded here (``SiteFiles/reuse(_:expected:at:)``): a file lost from an unchanged week
/// is written again, a page edited by hand is replaced, and a link put in its place is
/// never followed (issue 37).
struct SiteManifest: Codable, Sendable, Equatable {
  /// A file as written: its size in bytes and its SHA-256 in hex.
  struct File: Codable, Sendable, Hashable {
    var size: Int
    var sha256: String
  }

  struct Week: Codable, Sendable, Equatable {
    var key: String
    /// Every file of the week's folder, by its path inside it.
    var files: [String: File]
  }

  var generator: String
  var language: String
  var weeks: [String: Week] = [:]
  var programs: [String: File] = [:]

  init(generator: String, language: String) {
    self.generator = generator
    self.language = language
  }

  /// The manifest of the site at `folder`; `nil` when there is none, it is not a regular
  /// file, or it cannot be read (the site is then built whole).
  static func read(from folder: URL) -> SiteManifest? {
    let url = folder.appendingPathComponent(SitePaths.manifest)
    guard SiteFiles.kind(url) == .file, let data = try? Data(contentsOf: url) else { return nil }
    return try? JSONDecoder().decode(SiteManifest.self, from: data)
  }

  func encoded() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
  }
}
