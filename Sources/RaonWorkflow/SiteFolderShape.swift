import Foundation
import RaonCore
import RaonExport

#if canImport(Glibc)
  import Glibc
#endif

/// What a site folder may hold to be replaced, inside its folders too: a file a user put
/// in `site/programs/`, `site/districts/` or `site/weeks/` was deleted without a word by
/// the next `raon site`, while one beside `index.html` was refused (issue 37). As with a
/// report folder (``ReportFolderShape``), each is now refused in one line naming it, and
/// stays.
///
/// A site holds, at the top, its pages and manifest (regular files) and three folders:
/// `weeks/` (a folder per ISO week, each a report folder), `districts/` (a page per
/// district; `regions/`, a page per 시·도, for the national catalog) and `programs/` (a page
/// per program). A page there is Raon's when its name is
/// one Raon gives (a district's; a program's the manifest lists) or, for any other `.html`
/// name, when it begins as every page of a site does. A symbolic link is never a site's.
struct SiteFolderShape {
  /// Names the folder may hold at the top.
  var entries: Set<String>

  /// The paths (relative to `folder`) of what a site never writes there.
  func foreign(in folder: URL) -> [String] {
    guard let top = SiteFiles.entries(of: folder) else { return [] }
    var out: [String] = []
    for (name, kind) in top {
      let url = folder.appendingPathComponent(name)
      guard entries.contains(name) else {
        out.append(name)
        continue
      }
      switch name {
      case SitePaths.programs:
        let known = Set((SiteManifest.read(from: folder)?.programs.keys).map { $0.map(SitePaths.programFile) } ?? [])
        out += Self.pages(in: url, kind: kind, prefix: name, known: known)
      case SitePaths.districts:
        let known = Set(District.all.map { "\($0).html" })
        out += Self.pages(in: url, kind: kind, prefix: name, known: known)
      case SitePaths.regions, SitePaths.providers:
        // The national data's 시·도 and provider pages: named by the data, known by how they begin.
        out += Self.pages(in: url, kind: kind, prefix: name, known: [])
      case SitePaths.weeks:
        out += Self.weeks(in: url, kind: kind, prefix: name)
      default:
        if kind != .file { out.append(name) }
      }
    }
    return out
  }

  /// What in `folder` is not a site's page.
  private static func pages(in folder: URL, kind: SiteFiles.Kind, prefix: String, known: Set<String>) -> [String] {
    guard kind == .folder, let entries = SiteFiles.entries(of: folder) else { return [prefix] }
    return entries.filter { name, kind in
      kind != .file || !name.hasSuffix(".html")
        || !(known.contains(name) || isSitePage(folder.appendingPathComponent(name)))
    }.map { "\(prefix)/\($0.name)" }
  }

  /// What in `weeks/` is not a week's report folder.
  private static func weeks(in folder: URL, kind: SiteFiles.Kind, prefix: String) -> [String] {
    guard kind == .folder, let entries = SiteFiles.entries(of: folder) else { return [prefix] }
    let report = ReportFolderShape(entries: OutputPublisher.reportEntries)
    var out: [String] = []
    for (name, kind) in entries {
      let path = "\(prefix)/\(name)"
      guard kind == .folder, ISOWeek(name)?.description == name else {
        out.append(path)
        continue
      }
      out += report.foreign(in: folder.appendingPathComponent(name), prefix: path + "/")
    }
    return out
  }

  /// How every page of a site begins (``SitePages``).
  private static let opening = Array("<!DOCTYPE html>\n<html lang=\"".utf8)
  private static let policy = Array("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'".utf8)

  /// Whether the file begins as a site's page: its first bytes are the doctype, the
  /// language and the site's Content-Security-Policy.
  static func isSitePage(_ url: URL) -> Bool {
    let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var head = [UInt8](repeating: 0, count: 512)
    let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n > 0 else { return false }
    let bytes = head[0..<n]
    guard bytes.starts(with: opening) else { return false }
    return bytes.firstRange(of: policy) != nil
  }
}
