import CXlsxDeflate
import CXlsxWriter
import Foundation
import RaonConcurrency
import RaonCore

/// One libxlsxwriter workbook, owned: every call that can fail is checked and turned into
/// an ``XLSXExportError``, and the C memory is released exactly once.
///
/// The workbook is written under a hidden temporary name beside the destination and
/// renamed only after libxlsxwriter has saved it, so a failure never leaves a truncated
/// `report.xlsx` where the previous good one was.
///
/// Not `Sendable`: it holds C pointers and is used by one writer call at a time.
final class XLSXWorkbook {
  typealias Format = UnsafeMutablePointer<lxw_format>

  let handle: UnsafeMutablePointer<lxw_workbook>
  let finalURL: URL
  let temporaryURL: URL
  /// libxlsxwriter keeps the tmpdir pointer; it lives as long as the workbook.
  private let tmpdir: UnsafeMutablePointer<CChar>?
  private var isClosed = false
  /// Text cells its sheets cut to Excel's limit (``XLSXSheet/string(_:_:_:_:)``).
  private let cuts = XLSXCutCells()
  /// How many text cells written through a sheet (not a table stream, which counts its
  /// own) were cut to Excel's 32,767 characters.
  var cutTextCells: Int { cuts.count }
  private var sheetNames = XLSXSheetNames()
  /// The zlib level every part is deflated at: saving is a report's last step, and the
  /// deflating of the last parts is the last thing a report waits for. Level 2 is a third
  /// of level 6's time for a slightly larger file (the figures: bench/PROFILING.md,
  /// "Round four, session 6"; the mechanism: `CXlsxDeflate/xlsx_deflate.c`).
  static let deflateLevel: Int32 = 2
  /// Every sheet, in workbook order (for settings that apply to all of them).
  private(set) var sheets: [XLSXSheet] = []
  /// Sheets in constant-memory mode: their rows spill to a temporary file, whose write
  /// errors libxlsxwriter does not check (``checkRoomToSave()``).
  private var spillingSheets: [XLSXSheet] = []
  private var cachedLinkFormat: Format?

  /// Starts a workbook that will be saved at `url`.
  ///
  /// - Parameters:
  ///   - url: The final file.
  ///   - zip64: Allow ZIP64 so a sheet's XML may exceed 4 GB (only for huge catalogs:
  ///     a few old readers do not understand ZIP64 entries).
  init(url: URL, zip64: Bool) throws {
    finalURL = url
    temporaryURL = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
    // Constant-memory sheets spill to temporary files; keep them beside the output, not
    // in /tmp, which is memory-backed (tmpfs) on many systems.
    tmpdir = strdup(url.deletingLastPathComponent().path)
    var options = lxw_workbook_options(
      constant_memory: 0, tmpdir: tmpdir, use_zip64: zip64 ? 1 : 0)
    guard let wb = temporaryURL.path.withCString({ workbook_new_opt($0, &options) }) else {
      free(tmpdir)
      throw XLSXExportError.cannotCreateWorkbook(path: url.path)
    }
    handle = wb
  }

  deinit {
    if !isClosed {
      // An error interrupted the writing: free the C side and drop the partial file.
      _ = Self.capturingStandardError { workbook_close(handle) }
      try? FileManager.default.removeItem(at: temporaryURL)
    }
    free(tmpdir)
  }

  // MARK: - Sheets

  /// Adds a worksheet named after `proposedName`, sanitised and made unique.
  ///
  /// - Parameter constantMemory: Write this sheet in libxlsxwriter's constant-memory
  ///   mode: rows must then be written strictly in order and charts cannot cache values
  ///   read from it. The mode is read from the workbook's options when a worksheet is
  ///   added (libxlsxwriter 1.1.x), so it is switched on for this sheet alone; the
  ///   sheet's own `optimize` flag tells whether it took effect.
  func addSheet(_ proposedName: String, constantMemory: Bool = false) throws -> XLSXSheet {
    let name = sheetNames.claim(proposedName)
    let valid = name.withCString { workbook_validate_sheet_name(handle, $0) }
    try check(valid, "checking the sheet name '\(name)'", sheet: name)
    handle.pointee.options.constant_memory = constantMemory ? 1 : 0
    defer { handle.pointee.options.constant_memory = 0 }
    guard let ws = name.withCString({ workbook_add_worksheet(handle, $0) }) else {
      throw XLSXExportError.libraryCall(
        what: "adding a worksheet", sheet: name, code: -1, message: "no worksheet returned")
    }
    let sheet = XLSXSheet(handle: ws, name: name, cuts: cuts)
    sheets.append(sheet)
    if sheet.isConstantMemory { spillingSheets.append(sheet) }
    return sheet
  }

  /// Throws unless the workbook can be saved whole. libxlsxwriter writes a constant-memory
  /// sheet's rows to a temporary file with `fprintf`, and at close copies each sheet into
  /// another temporary file and then into the ZIP, checking none of those writes but the
  /// last: on a nearly full disk it saved a workbook whose programs sheet was cut in half
  /// and reported success (the hostile set, issue 18). So: the rows spilled so far must
  /// have been written (the stream's error flag is sticky), and the disk must hold twice
  /// what they take plus 8 MB for the rest — the copy made at close and the ZIP. Measured
  /// on the sample (7.7 MB of rows): every tmpfs of 4–40 MB either saved a complete
  /// workbook or was refused here.
  private func checkRoomToSave() throws {
    var spilled: Int64 = 0
    for sheet in spillingSheets {
      guard let file = sheet.handle.pointee.optimize_tmpfile else { continue }
      let flushed = fflush(file) == 0
      let reason = flushed ? "" : String(cString: strerror(errno))
      guard flushed, ferror(file) == 0 else {
        throw XLSXExportError.cannotSave(
          path: finalURL.path, code: -1,
          message: "the rows of sheet '\(sheet.name)' could not be written to a temporary file"
            + (reason.isEmpty ? " (is the disk full?)" : " — \(reason)"))
      }
      spilled += Int64(max(ftello(file), 0))
    }
    let folder = finalURL.deletingLastPathComponent().path
    var disk = statvfs()
    guard statvfs(folder, &disk) == 0 else { return }  // unknown: let the save try
    let free = Int64(disk.f_bavail) * Int64(disk.f_frsize)
    let needed = 2 * spilled + 8 << 20
    guard free >= needed else {
      throw XLSXExportError.cannotSave(
        path: finalURL.path, code: -1,
        message: "saving the workbook needs about \(needed >> 20) MB free beside it and "
          + "\(free >> 20) MB are (No space left on device)")
    }
  }

  /// Sets every sheet's printed page header (``XLSXPrintSetUp/header(title:period:district:)``).
  /// Headers are kept until the file is saved, so they can be set after a streamed sheet's
  /// rows: the report's week and district are known only once the figures are.
  /// - Parameter twoLines: The header's left holds two lines (a national pack's title and
  ///   name): it starts higher (0.15″ from the edge, not 0.3″) so both fit above the sheet.
  func setPageHeaders(_ header: String, twoLines: Bool = false) throws {
    for sheet in sheets {
      var options = lxw_header_footer_options()
      options.margin = 0.15
      let err = header.withCString {
        twoLines ? worksheet_set_header_opt(sheet.handle, $0, &options) : worksheet_set_header(sheet.handle, $0)
      }
      try check(err, "setting the printed page header", sheet: sheet.name)
    }
  }

  // MARK: - Formats and charts

  /// A new cell format, configured by `configure`. Formats are cached by the caller:
  /// each call adds one to the workbook.
  func addFormat(_ configure: (Format) -> Void) throws -> Format {
    guard let format = workbook_add_format(handle) else {
      throw XLSXExportError.libraryCall(
        what: "adding a cell format", sheet: "", code: -1, message: "out of memory")
    }
    configure(format)
    return format
  }

  /// Blue and underlined, as Excel shows a link: the format of `HYPERLINK` formula cells
  /// (``XLSXTableStream/link(_:_:)``), made once per workbook.
  func linkFormat() throws -> Format {
    if let cachedLinkFormat { return cachedLinkFormat }
    let format = try addFormat {
      format_set_font_color($0, 0x0563C1)
      format_set_underline($0, UInt8(LXW_UNDERLINE_SINGLE.rawValue))
    }
    cachedLinkFormat = format
    return format
  }

  /// A new chart of a libxlsxwriter chart type (`LXW_CHART_BAR`, …).
  func addChart(_ type: lxw_chart_type) throws -> UnsafeMutablePointer<lxw_chart> {
    guard let chart = workbook_add_chart(handle, UInt8(type.rawValue)) else {
      throw XLSXExportError.libraryCall(
        what: "adding a chart", sheet: "", code: -1, message: "out of memory")
    }
    return chart
  }

  /// Sets the document properties; `created` makes the output reproducible (no clock).
  func setProperties(
    title: String, subject: String, author: String, keywords: String, comments: String,
    created: Date
  ) throws {
    // A snapshot's source (a file name) can hold anything; XML 1.0 cannot.
    let err = SafeText.clean(title).withCString { t in
      SafeText.clean(subject).withCString { s in
        SafeText.clean(author).withCString { a in
          SafeText.clean(keywords).withCString { k in
            SafeText.clean(comments).withCString { c in
              var properties = lxw_doc_properties()
              properties.title = UnsafeMutablePointer(mutating: t)
              properties.subject = UnsafeMutablePointer(mutating: s)
              properties.author = UnsafeMutablePointer(mutating: a)
              properties.keywords = UnsafeMutablePointer(mutating: k)
              properties.comments = UnsafeMutablePointer(mutating: c)
              // 0 would mean "now" to libxlsxwriter; never pass it.
              properties.created = max(1, time_t(created.timeIntervalSince1970.rounded(.down)))
              return workbook_set_properties(handle, &properties)
            }
          }
        }
      }
    }
    try check(err, "setting the document properties", sheet: "")
  }

  // MARK: - Saving

  /// Held while file descriptor 2 is redirected (see below).
  private static let capturing = Guarded(())

  /// Runs `body` with file descriptor 2 sent to a temporary file and returns what was
  /// written there. libxlsxwriter prints `[ERROR]` lines of its own to standard error when
  /// saving fails (a full disk), which would break Raon's one-line error messages; the
  /// caller folds the useful part into its error instead.
  ///
  /// File descriptor 2 belongs to the whole process, so captures are taken one at a time:
  /// two workbooks saved at once on two threads would otherwise each restore the other's
  /// redirection and leave standard error pointing at a deleted file.
  static func capturingStandardError<T: Sendable>(_ body: () -> T) -> (T, String) {
    capturing.withLock { _ in capturingUnlocked(body) }
  }

  /// Runs `body` while no workbook has file descriptor 2 redirected (what a check of where
  /// standard error points must wait for, when other workbooks may be saving).
  static func withStandardErrorInPlace<T: Sendable>(_ body: () -> T) -> T {
    capturing.withLock { _ in body() }
  }

  private static func capturingUnlocked<T>(_ body: () -> T) -> (T, String) {
    fflush(nil)
    guard let capture = tmpfile() else { return (body(), "") }
    defer { fclose(capture) }
    let saved = dup(2)
    guard saved >= 0, dup2(fileno(capture), 2) >= 0 else {
      if saved >= 0 { closeDescriptor(saved) }
      return (body(), "")
    }
    let value = body()
    fflush(nil)
    dup2(saved, 2)
    closeDescriptor(saved)
    rewind(capture)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while bytes.count < 65_536 {
      let n = fread(&buffer, 1, buffer.count, capture)
      if n <= 0 { break }
      bytes += buffer[0..<n]
    }
    return (value, String(decoding: bytes, as: UTF8.self))
  }

  /// Saves the workbook and moves it to its final name.
  func close() throws {
    // On failure deinit frees the C side and removes the partial file.
    try checkRoomToSave()
    isClosed = true
    raon_xlsx_set_deflate_level(Self.deflateLevel)
    let (err, printed) = Self.capturingStandardError { workbook_close(handle) }
    guard err == LXW_NO_ERROR else {
      try? FileManager.default.removeItem(at: temporaryURL)
      var message = XLSXExportError.message(err)
      // libxlsxwriter names the system's reason ("No space left on device") only in text
      // it prints itself; keep that reason in the one-line error.
      if let range = printed.range(of: "System error = ") {
        let reason = printed[range.upperBound...].prefix { $0 != "\n" && $0 != "\r" }
        if !reason.isEmpty { message += " — " + reason }
      }
      throw XLSXExportError.cannotSave(
        path: finalURL.path, code: Int32(err.rawValue), message: message)
    }
    do {
      if FileManager.default.fileExists(atPath: finalURL.path) {
        _ = try FileManager.default.replaceItemAt(finalURL, withItemAt: temporaryURL)
      } else {
        try FileManager.default.moveItem(at: temporaryURL, to: finalURL)
      }
    } catch {
      try? FileManager.default.removeItem(at: temporaryURL)
      throw XLSXExportError.cannotMove(
        from: temporaryURL.lastPathComponent, to: finalURL.path, reason: "\(error)")
    }
  }

  func check(_ err: lxw_error, _ what: @autoclosure () -> String, sheet: String) throws {
    guard err == LXW_NO_ERROR else {
      throw XLSXExportError.libraryCall(
        what: what(), sheet: sheet, code: Int32(err.rawValue), message: XLSXExportError.message(err))
    }
  }
}

/// A workbook's count of text cells cut to Excel's limit, shared by its sheets.
final class XLSXCutCells {
  var count = 0
}

/// `close(2)`, out of reach of `XLSXWorkbook.close()`.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
