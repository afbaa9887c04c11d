import Foundation
import RaonExport

/// Writes a report folder so that it appears whole or not at all.
///
/// Files are written into a hidden sibling (`.NAME.raon-partial-PID`) and moved into place
/// at the end, so a failed or killed run never leaves a half-written report and never
/// destroys the earlier one. Leftovers of killed runs are removed by the next run.
public enum OutputPublisher {
  /// Names a report folder may contain; a non-empty folder holding anything else is not
  /// replaced (so `--out ~` can never wipe a home directory).
  /// Derived from what each format's writer declares, so a new output file cannot be
  /// forgotten here.
  static let reportEntries: Set<String> = ReportFormat.allCases.reduce(into: [DistrictPacks.folder]) {
    $0.formUnion($1.writer.outputEntries)
  }

  /// Runs `write` into a fresh temporary folder beside `target`, then moves it to `target`.
  public static func publish<T>(to target: URL, _ write: (URL) throws -> T) throws -> T {
    let staging = try stage(target)
    let value: T
    do {
      value = try write(staging.folder)
    } catch {
      discard(staging)
      throw error
    }
    try commit(staging)
    return value
  }

  /// A report folder being written: `folder` is hidden until ``commit(_:)``.
  struct Staging: Sendable {
    let target: URL
    let folder: URL
  }

  /// Checks that `target` may be replaced and makes the hidden folder to write into.
  ///
  /// - Parameter entries: The names an earlier folder at `target` may hold to be replaced
  ///   (a report's by default; `raon trend` gives its own).
  static func stage(_ target: URL, entries: Set<String> = reportEntries) throws -> Staging {
    let fm = FileManager.default
    let parent = target.deletingLastPathComponent()
    let name = target.lastPathComponent
    do {
      try fm.createDirectory(at: parent, withIntermediateDirectories: true)
    } catch {
      throw WorkflowError.outputNotWritable(path: target.path, reason: reason(error))
    }
    try checkReplaceable(target, entries: entries)
    removeStaleSiblings(of: name, in: parent)

    let pid = ProcessInfo.processInfo.processIdentifier
    let temporary = parent.appendingPathComponent(".\(name).raon-partial-\(pid)")
    try? fm.removeItem(at: temporary)
    do {
      try fm.createDirectory(at: temporary, withIntermediateDirectories: false)
    } catch {
      throw WorkflowError.outputNotWritable(path: parent.path, reason: reason(error))
    }
    return Staging(target: target, folder: temporary)
  }

  /// Removes a staged folder: nothing of it is published.
  static func discard(_ staging: Staging) {
    try? FileManager.default.removeItem(at: staging.folder)
  }

  /// Moves the staged folder into place, replacing an earlier report only once it is.
  static func commit(_ staging: Staging) throws {
    let fm = FileManager.default
    let target = staging.target
    let parent = target.deletingLastPathComponent()
    let pid = ProcessInfo.processInfo.processIdentifier
    let old = parent.appendingPathComponent(".\(target.lastPathComponent).raon-old-\(pid)")
    let hadTarget = fm.fileExists(atPath: target.path)
    do {
      if hadTarget { try fm.moveItem(at: target, to: old) }
      do {
        try fm.moveItem(at: staging.folder, to: target)
      } catch {
        if hadTarget { try? fm.moveItem(at: old, to: target) }
        throw error
      }
    } catch {
      discard(staging)
      throw WorkflowError.outputNotWritable(path: target.path, reason: reason(error))
    }
    if hadTarget { try? fm.removeItem(at: old) }
  }

  static func checkReplaceable(_ target: URL, entries: Set<String> = reportEntries) throws {
    let fm = FileManager.default
    var isDirectory: ObjCBool = false
    guard fm.fileExists(atPath: target.path, isDirectory: &isDirectory) else { return }
    guard isDirectory.boolValue else {
      throw WorkflowError.outputNotWritable(path: target.path, reason: "a file of that name exists")
    }
    let present = (try? fm.contentsOfDirectory(atPath: target.path)) ?? []
    let foreign = present.filter { !entries.contains($0) }
    if !foreign.isEmpty {
      throw WorkflowError.outputNotWritable(
        path: target.path,
        reason: "the folder holds files that are not a Raon report (\(foreign.sorted().prefix(3).joined(separator: ", ")))")
    }
  }

  /// Removes `.NAME.raon-partial-PID` / `.NAME.raon-old-PID` left by runs that died.
  private static func removeStaleSiblings(of name: String, in parent: URL) {
    let fm = FileManager.default
    guard let entries = try? fm.contentsOfDirectory(atPath: parent.path) else { return }
    for entry in entries {
      for marker in [".\(name).raon-partial-", ".\(name).raon-old-"] where entry.hasPrefix(marker) {
        guard let pid = Int32(entry.dropFirst(marker.count)) else { continue }
        if pid == ProcessInfo.processInfo.processIdentifier || kill(pid, 0) != 0 {
          try? fm.removeItem(at: parent.appendingPathComponent(entry))
        }
      }
    }
  }

  private static func reason(_ error: Error) -> String {
    let text = (error as NSError).localizedDescription
    return text.replacingOccurrences(of: "\n", with: " ")
  }
}
