import Foundation
import RaonConcurrency
import RaonCore
import RaonErrors
import RaonExport

#if canImport(Glibc)
  import Glibc
#endif

/// Writes a report folder so that it appears whole or not at all.
///
/// Files are written into a hidden sibling (`.NAME.raon-partial-PID`) and swapped into
/// place at the end with one atomic exchange (`renameat2(RENAME_EXCHANGE)`), so the old or
/// the new report is in place at every instant: a failed, interrupted or killed run never
/// leaves a half-written report and never loses the earlier one. Leftovers of killed runs
/// are removed by the next run, and an earlier report that a killed run had moved aside
/// (`.NAME.raon-old-PID`, on a file system without the exchange) is put back.
public enum OutputPublisher {
  /// What a report folder may contain; a non-empty folder holding anything else is not
  /// replaced (so `--out ~` can never wipe a home directory). From the format registry (what
  /// each format declares it makes), so a new output file cannot be forgotten here.
  static var reportEntries: FolderShape { reportEntries(FormatRegistry.standard) }

  /// The folders that hold a report's packs, one name per shipped catalog (`districts`,
  /// `regions`: ``FileWords/packFolder``).
  static let packFolders = Array(Set(CatalogProfile.all.map(\.words.files.packFolder))).sorted()

  /// What a report folder may contain with the formats of `registry`: their outputs and
  /// the packs' folders.
  static func reportEntries(_ registry: FormatRegistry) -> FolderShape {
    registry.reportFolder.adding(Set(packFolders))
  }

  /// Runs `write` into a fresh temporary folder beside `target`, then moves it to `target`.
  public static func publish<T>(to target: URL, _ write: (URL) throws -> T) throws -> T {
    try publish(target) { try write($0.folder) }
  }

  /// Every job's publication: checks that `target` may be replaced, runs `write` into a
  /// hidden folder beside it, then swaps that folder into place; when `write` fails,
  /// nothing is published and the hidden folder goes.
  ///
  /// - Parameters:
  ///   - entries, reportShaped: What an earlier folder at `target` may hold to be
  ///     replaced (see ``stage(_:entries:reportShaped:)``).
  ///   - write: Writes into the staged folder.
  static func publish<T>(
    _ target: URL, entries: FolderShape = reportEntries, reportShaped: Bool = true,
    _ write: (Staging) throws -> T
  ) throws -> T {
    let staging = try stage(target, entries: entries, reportShaped: reportShaped)
    let value: T
    do {
      value = try write(staging)
    } catch {
      discard(staging)
      throw error
    }
    try commit(staging)
    return value
  }

  /// Removes every folder this process has staged and not yet published: the signal
  /// handler's clean-up, run inside ``Interruption/interrupt(then:)`` of
  /// ``Interruption/process`` (which makes any later ``commit(_:)`` fail). Returns the
  /// folders it could not remove entirely (the next run removes them).
  @discardableResult
  public static func removeStaged() -> [String] {
    StagingRegistry.shared.removeStaged()
  }

  /// What a staged folder is renamed to while an interrupt removes it
  /// (`.NAME.raon-partial-PID.removing`).
  static let removingSuffix = ".removing"

  /// A report folder being written: `folder` is hidden until ``commit(_:)``.
  struct Staging: Sendable {
    let target: URL
    let folder: URL
  }

  /// Checks that `target` may be replaced and makes the hidden folder to write into.
  ///
  /// - Parameters:
  ///   - entries: The names an earlier folder at `target` may hold to be replaced (a
  ///     report's by default; `raon trend` and `raon site` give their own).
  ///   - reportShaped: Whether those names are a report's (``ReportFolderShape``: what
  ///     each subfolder may hold is checked too), else a site's (``SiteFolderShape``).
  ///   - registry: Where the staged folder is registered (the process's, but for tests).
  static func stage(
    _ requested: URL, entries: FolderShape = reportEntries, reportShaped: Bool = true,
    registry: StagingRegistry = .shared
  ) throws -> Staging {
    let fm = FileManager.default
    let target = try resolvingLink(requested)
    let parent = target.deletingLastPathComponent()
    let name = target.lastPathComponent
    do {
      // Only while uninterrupted: a site's week is staged inside the site's staged folder,
      // and making its parent after an interrupt had removed that folder made it again,
      // empty (hostile site_signals #12).
      try registry.whileUninterrupted { try fm.createDirectory(at: parent, withIntermediateDirectories: true) }
    } catch let error as WorkflowError {
      throw error
    } catch {
      throw WorkflowError.outputNotWritable(path: target.path, reason: reason(error))
    }
    restoreOrphans(of: name, in: parent)
    try checkReplaceable(target, entries: entries, reportShaped: reportShaped)
    removeStaleSiblings(of: name, in: parent)

    let pid = ProcessInfo.processInfo.processIdentifier
    let temporary = parent.appendingPathComponent(".\(name).raon-partial-\(pid)")
    try? fm.removeItem(at: temporary)
    do {
      try registry.register(temporary) {
        try fm.createDirectory(at: temporary, withIntermediateDirectories: false)
      }
    } catch let error as WorkflowError {
      throw error
    } catch {
      throw WorkflowError.outputNotWritable(path: parent.path, reason: reason(error))
    }
    return Staging(target: target, folder: temporary)
  }

  /// Removes a staged folder: nothing of it is published.
  static func discard(_ staging: Staging) {
    try? StagingRegistry.shared.unregister(staging.folder) {
      try? FileManager.default.removeItem(at: staging.folder)
    }
  }

  /// Swaps the staged folder into place, replacing an earlier report in one step.
  static func commit(_ staging: Staging) throws {
    let target = staging.target
    let replaced: URL?
    do {
      replaced = try StagingRegistry.shared.publish(staging.folder, to: target) { try swapIntoPlace(staging.folder, target) }
    } catch let error as WorkflowError {
      discard(staging)
      throw error
    } catch {
      discard(staging)
      throw WorkflowError.outputNotWritable(path: target.path, reason: reason(error))
    }
    if let replaced { StagingRegistry.shared.removeReplaced(replaced) }
  }

  /// Whether this process has published a folder (for the interrupt's message).
  public static var hasPublished: Bool { StagingRegistry.shared.hasPublished }

  /// Puts `folder` at `target`. Returns where the earlier report now is (to remove), if any.
  ///
  /// With an existing target the two are exchanged atomically, so `target` names the old
  /// or the new report at every instant; where the file system cannot exchange, the old
  /// one is first renamed to `.NAME.raon-old-PID`, which the next run restores if this one
  /// dies before the new one is in.
  private static func swapIntoPlace(_ folder: URL, _ target: URL) throws -> URL? {
    if Rename.exchange(folder.path, target.path) { return folder }
    let exchangeErrno = errno
    guard exchangeErrno != ENOENT || FileManager.default.fileExists(atPath: target.path) else {
      // No earlier report: a plain rename, refusing to replace one that appeared meanwhile.
      try Rename.noReplace(folder.path, target.path)
      return nil
    }
    guard exchangeErrno == EINVAL || exchangeErrno == ENOSYS || exchangeErrno == ENOTSUP else {
      throw Rename.Failure(code: exchangeErrno)
    }
    let fm = FileManager.default
    let pid = ProcessInfo.processInfo.processIdentifier
    let old = target.deletingLastPathComponent()
      .appendingPathComponent(".\(target.lastPathComponent).raon-old-\(pid)")
    try fm.moveItem(at: target, to: old)
    do {
      try fm.moveItem(at: folder, to: target)
    } catch {
      try? fm.moveItem(at: old, to: target)
      throw error
    }
    return old
  }

  /// `--out` given as a symbolic link: the report goes where it points, and the link stays.
  private static func resolvingLink(_ target: URL) throws -> URL {
    var url = target.standardizedFileURL
    for _ in 0..<16 {
      guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)
      else { return url }
      url =
        destination.hasPrefix("/")
        ? URL(fileURLWithPath: destination)
        : url.deletingLastPathComponent().appendingPathComponent(destination)
      url = url.standardizedFileURL
    }
    throw WorkflowError.outputNotWritable(path: target.path, reason: "its symbolic links go round in a loop")
  }

  static func checkReplaceable(
    _ target: URL, entries: FolderShape = reportEntries, reportShaped: Bool = true
  ) throws {
    try checkWritable(beside: target)
    let fm = FileManager.default
    var isDirectory: ObjCBool = false
    guard fm.fileExists(atPath: target.path, isDirectory: &isDirectory) else { return }
    guard isDirectory.boolValue else {
      throw WorkflowError.outputNotWritable(path: target.path, reason: "a file of that name exists")
    }
    let foreign =
      reportShaped
      ? ReportFolderShape(entries: entries).foreign(in: target)
      : SiteFolderShape(entries: entries.names).foreign(in: target)
    if !foreign.isEmpty {
      throw WorkflowError.outputNotWritable(
        path: target.path,
        reason: "the folder holds files that are not a Raon \(reportShaped ? "report" : "site") (\(foreign.sorted().prefix(3).joined(separator: ", ")))")
    }
  }

  /// Whether the folder is staged beside `target` can be made: a file can be made in the
  /// nearest existing folder above it (not a read-only mount, a folder without write
  /// permission, or a file system that takes no files, such as `/proc`). Checked before
  /// anything is recorded, so such a request records nothing; a full disk can only be
  /// found by writing.
  ///
  /// A file is made and removed rather than `access(2)` asked: for root, `access` says yes
  /// to every folder of `/proc` and `/sys`, where no file can be made.
  static func checkWritable(beside target: URL) throws {
    var folder = target.standardizedFileURL.deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: folder.path), folder.path != "/" {
      folder = folder.deletingLastPathComponent()
    }
    let probe = folder.appendingPathComponent(".raon-probe-\(getpid())-\(UUID().uuidString.prefix(8))").path
    // Made and removed while no interrupt can end the process in between (it would leave
    // the probe behind).
    let failure = try StagingRegistry.shared.whileUninterrupted { () -> Int32? in
      let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
      guard descriptor >= 0 else { return errno }
      close(descriptor)
      unlink(probe)
      return nil
    }
    if let failure {
      throw WorkflowError.outputNotWritable(
        path: target.path, reason: "\(folder.path) cannot be written (\(String(cString: strerror(failure))))")
    }
  }

  /// Puts back an earlier report that a killed run had moved aside and not replaced.
  private static func restoreOrphans(of name: String, in parent: URL) {
    let fm = FileManager.default
    let target = parent.appendingPathComponent(name)
    guard !fm.fileExists(atPath: target.path),
      let entries = try? fm.contentsOfDirectory(atPath: parent.path)
    else { return }
    let marker = ".\(name).raon-old-"
    for entry in entries.sorted() where entry.hasPrefix(marker) {
      guard let pid = Int32(entry.dropFirst(marker.count)), !isAlive(pid) else { continue }
      if (try? fm.moveItem(at: parent.appendingPathComponent(entry), to: target)) != nil { return }
    }
  }

  /// Removes `.NAME.raon-partial-PID` / `.NAME.raon-old-PID` left by runs that died.
  private static func removeStaleSiblings(of name: String, in parent: URL) {
    let fm = FileManager.default
    guard let entries = try? fm.contentsOfDirectory(atPath: parent.path) else { return }
    let hasTarget = fm.fileExists(atPath: parent.appendingPathComponent(name).path)
    for entry in entries {
      for marker in [".\(name).raon-partial-", ".\(name).raon-old-"] where entry.hasPrefix(marker) {
        var rest = entry.dropFirst(marker.count)
        if rest.hasSuffix(removingSuffix) { rest = rest.dropLast(removingSuffix.count) }
        guard let pid = Int32(rest) else { continue }
        // An old report is removed only once a report is in place again.
        if marker.hasSuffix("old-") && !hasTarget { continue }
        if pid == ProcessInfo.processInfo.processIdentifier || !isAlive(pid) {
          try? fm.removeItem(at: parent.appendingPathComponent(entry))
        }
      }
    }
  }

  private static func isAlive(_ pid: Int32) -> Bool {
    pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
  }

  private static func reason(_ error: Error) -> String {
    let text = (error as NSError).localizedDescription
    return text.replacingOccurrences(of: "\n", with: " ")
  }
}

/// What a report folder may hold to be replaced, inside its subfolders too: a file a user
/// put in `districts/강남구/` or `csv/` was deleted without a word when the report was
/// run again, while one beside `report.md` was refused (issue 27).
///
/// Each name the formats declare must be what they write there: a folder they declare a
/// folder of files with one ending (`charts/` of `.svg`, `csv/` of `.csv`), `districts/` a
/// folder of district folders, each a report folder itself, and every other name a regular
/// file (a folder named `report.md/` is not a report's).
struct ReportFolderShape {
  /// What the folder may hold.
  var entries: FolderShape

  /// The paths (relative to `folder`) of what a report never writes there.
  func foreign(in folder: URL, prefix: String = "") -> [String] {
    let fm = FileManager.default
    var out: [String] = []
    for name in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] {
      let url = folder.appendingPathComponent(name)
      let path = prefix + name
      guard entries.names.contains(name) else {
        out.append(path)
        continue
      }
      if let ending = entries.folders[name] {
        out += Self.files(in: url, ending: ending, prefix: path)
        continue
      }
      switch name {
      case _ where OutputPublisher.packFolders.contains(name):
        guard Self.isFolder(url) else {
          out.append(path)
          continue
        }
        var inPack = entries
        for folder in OutputPublisher.packFolders { inPack.names.remove(folder) }
        let pack = ReportFolderShape(entries: inPack)
        for district in (try? fm.contentsOfDirectory(atPath: url.path)) ?? [] {
          let packURL = url.appendingPathComponent(district)
          // A pack of fixed regions is one of them (Seoul's 25); one of regions the data
          // brings (a 시·도 or a provider) may be named anything.
          let fixed = CatalogProfile.all.first { $0.words.files.packFolder == name }?.fixedRegions
          if fixed?.contains(district) ?? true, Self.isFolder(packURL) {
            out += pack.foreign(in: packURL, prefix: "\(path)/\(district)/")
          } else {
            out.append("\(path)/\(district)")
          }
        }
      default:
        if !Self.isRegularFile(url) { out.append(path) }
      }
    }
    return out
  }

  /// What in `folder` is not a regular file named `*ending` (or `folder` itself when it
  /// is not a folder).
  private static func files(in folder: URL, ending: String, prefix: String) -> [String] {
    guard isFolder(folder) else { return [prefix] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { !$0.hasSuffix(ending) || !isRegularFile(folder.appendingPathComponent($0)) }
      .map { "\(prefix)/\($0)" }
  }

  /// Not following a symbolic link: a link is no report's.
  private static func type(_ url: URL) -> FileAttributeType? {
    (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
  }

  private static func isFolder(_ url: URL) -> Bool { type(url) == .typeDirectory }
  private static func isRegularFile(_ url: URL) -> Bool { type(url) == .typeRegular }
}
