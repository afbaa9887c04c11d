import CXlsxWriter
import RaonErrors

/// Why an XLSX workbook could not be written. Every message is one line saying what
/// failed, where, and what to do about it.
public enum XLSXExportError: RaonError, CustomStringConvertible, Equatable {
  /// libxlsxwriter could not start a workbook at `path` (usually out of memory).
  case cannotCreateWorkbook(path: String)
  /// A libxlsxwriter call failed while building the workbook.
  case libraryCall(what: String, sheet: String, code: Int32, message: String)
  /// libxlsxwriter could not assemble and save the file.
  case cannotSave(path: String, code: Int32, message: String)
  /// The finished file could not be moved to its final name.
  case cannotMove(from: String, to: String, reason: String)
  /// A report's workbook is written with its programs (``FormatEntry/withPrograms``), not
  /// from the document alone.
  case reportNeedsItsPrograms

  public var description: String {
    switch self {
    case .cannotCreateWorkbook(let path):
      return "XLSX: could not start a workbook for \(path); check free memory and that the "
        + "directory is writable, then run the report again."
    case .libraryCall(let what, let sheet, let code, let message):
      let place = sheet.isEmpty ? "" : " on sheet '\(sheet)'"
      return "XLSX: \(what)\(place) failed (libxlsxwriter error \(code): \(message)); this is "
        + "a bug in Raon's XLSX writer, please report it with the command you ran."
    case .cannotSave(let path, let code, let message):
      return "XLSX: could not save \(path) (libxlsxwriter error \(code): \(message)); check "
        + "that the directory exists, is writable and has free space, and that the file "
        + "is not open in another program."
    case .cannotMove(let from, let to, let reason):
      return "XLSX: could not move \(from) to \(to) (\(reason)); check that \(to) is not open "
        + "in another program and that the directory is writable."
    case .reportNeedsItsPrograms:
      return "XLSX: a report's workbook is written as its programs are read; this is a bug in "
        + "Raon's report job, please report it with the command you ran."
    }
  }

  /// The text libxlsxwriter gives for an error code.
  static func message(_ error: lxw_error) -> String {
    guard let text = lxw_strerror(error) else { return "unknown error" }
    return String(cString: text)
  }
}

extension XLSXExportError {
  public var exitStatus: ExitStatus {
    switch self {
    case .cannotCreateWorkbook, .libraryCall, .cannotSave, .cannotMove, .reportNeedsItsPrograms: .failure
    }
  }
}
