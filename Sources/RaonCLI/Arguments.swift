import ArgumentParser
import RaonDocument
import RaonExport

extension ReportLanguage: ExpressibleByArgument {}
extension CSVEncoding: ExpressibleByArgument {}
extension CSVHeaders: ExpressibleByArgument {}

/// Checks on option values shared by the commands that write files, made before anything
/// is opened or recorded.
enum OptionChecks {
  /// An empty `--out` would mean the working directory, which a report would then replace;
  /// refused like an empty `--db` (a variable used for it may be unset).
  static func requireNonEmptyOut(_ out: String?) throws {
    guard let out, out.trimmingCharacters(in: .whitespaces).isEmpty else { return }
    throw ValidationError(
      "--out is empty — give a folder (is a variable used for it unset?)")
  }

  /// An empty `--format` (or only commas) would silently mean the default formats.
  static func requireFormats(_ format: String?, example: String) throws {
    guard let format else { return }
    let items = format.split(separator: ",").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    guard items.isEmpty else { return }
    throw ValidationError("--format lists no format — give some, e.g. --format \(example)")
  }
}
