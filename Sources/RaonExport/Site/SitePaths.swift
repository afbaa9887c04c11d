import Foundation
import RaonCore

/// Where each page of a site is, relative to the site's folder, and the relative links
/// between them (a site opens from disk or any sub-path of a server: no link starts at
/// the root).
public enum SitePaths {
  public static let index = "index.html"
  public static let search = "search.html"
  public static let trend = "trend.html"
  public static let weeks = "weeks"
  public static let districts = "districts"
  public static let programs = "programs"
  /// The national data's page per 시·도 (Seoul's are in ``districts``).
  public static let regions = "regions"
  /// The national data's page per provider (``FileWords/groupFolder``).
  public static let providers = "providers"
  public static let manifest = ".raon-site.json"
  /// Everything a site folder may hold (an earlier site is replaced only then).
  public static let entries: Set<String> = [index, search, trend, weeks, districts, regions, providers, programs, manifest]

  /// `weeks/2024-W37`
  public static func weekFolder(_ week: ISOWeek) -> String { "\(weeks)/\(week)" }

  /// The week's report page: the city's, or a district's pack.
  public static func weekReport(_ week: ISOWeek, district: String? = nil) -> String {
    district.map { weekReport(week, pack: $0, in: districts) } ?? "\(weekFolder(week))/report.html"
  }

  /// A pack's report page in a week: `weeks/2024-W37/districts/강남구/report.html`.
  public static func weekReport(_ week: ISOWeek, pack name: String, in folder: String) -> String {
    "\(weekFolder(week))/\(folder)/\(name)/report.html"
  }

  /// An area's or a group's page: `districts/강남구.html`, `providers/경상북도 안동시.html`.
  public static func area(_ folder: String, _ name: String) -> String { "\(folder)/\(name).html" }

  /// `districts/강남구.html`
  public static func district(_ name: String) -> String { area(districts, name) }

  /// The national data's week report of a 시·도 as named that week:
  /// `weeks/2025-W14/regions/강원특별자치도/report.html` (the report's region pack).
  public static func weekReport(_ week: ISOWeek, region: String) -> String {
    weekReport(week, pack: region, in: regions)
  }

  /// `regions/강원특별자치도.html`: a 시·도's page, named as in the site's latest week.
  public static func region(_ name: String) -> String { area(regions, name) }

  /// `programs/cult-154024.html`: the id with `:` as `-`; any other byte that is not a
  /// letter, digit or `-` as `_XX` (hex), so every id has a file name of its own. An id
  /// whose name would be longer than ``longestProgramName`` bytes (a file name may hold 255)
  /// keeps the first ``keptOfLongName`` bytes of its name, then `~` and the SHA-256 of the
  /// id in hex: still one name per id, the same in every build, and never a short id's
  /// name (those hold no `~`).
  public static func program(_ id: String) -> String { "\(programs)/\(programFile(id))" }

  /// The longest name (before `.html`) an id's page keeps as it is.
  public static let longestProgramName = 150
  /// What a longer name keeps of itself before `~` and the id's SHA-256.
  public static let keptOfLongName = 80

  public static func programFile(_ id: String) -> String {
    var name = ""
    for byte in id.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
        name.append(Character(UnicodeScalar(byte)))
      case UInt8(ascii: ":"): name += "-"
      default: name += String(format: "_%02X", byte)
      }
    }
    guard name.utf8.count > longestProgramName else { return name + ".html" }
    // The name is ASCII; a cut never splits an `_XX`.
    var kept = name.utf8.prefix(keptOfLongName)
    if let escape = kept.suffix(2).firstIndex(of: UInt8(ascii: "_")) { kept = kept[..<escape] }
    return String(decoding: kept, as: UTF8.self) + "~" + SHA256.hex(id) + ".html"
  }

  /// A name the data brings (a provider's) as a file name: itself, with `/` as `／` and a
  /// leading `.` as `．` (never a folder, never hidden); a name longer than
  /// ``longestProgramName`` bytes keeps its first characters, then `~` and its SHA-256.
  public static func fileName(_ name: String) -> String {
    var clean = name.replacingOccurrences(of: "/", with: "／").replacingOccurrences(of: "\u{0}", with: "")
    if clean.hasPrefix(".") { clean = "．" + clean.dropFirst() }
    guard clean.utf8.count > longestProgramName else { return clean }
    var kept = ""
    for character in clean {
      guard kept.utf8.count + character.utf8.count <= keptOfLongName else { break }
      kept.append(character)
    }
    return kept + "~" + SHA256.hex(name)
  }

  /// The link from a page at `from` (a path in the site) to `to`, percent-encoded.
  public static func link(from: String, to: String) -> String {
    let depth = from.split(separator: "/", omittingEmptySubsequences: false).count - 1
    return String(repeating: "../", count: depth) + encode(to)
  }

  /// Each path segment percent-encoded (Korean district names in URLs).
  public static func encode(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: false).map {
      $0.addingPercentEncoding(withAllowedCharacters: unreserved) ?? String($0)
    }.joined(separator: "/")
  }

  /// A value in a link's query (`search.html?d=…`), percent-encoded.
  public static func queryValue(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
  }

  private static let unreserved = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")  // RFC 3986
}
