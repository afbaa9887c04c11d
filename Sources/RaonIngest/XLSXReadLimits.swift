/// What one `.xlsx` may make Raon hold, set against the file's own size as well as in
/// absolute terms, so a small file that inflates to gigabytes (a ZIP bomb: one cell of
/// 250 MB of `a` is a 251 KiB file) is refused before its contents are allocated, while
/// honest workbooks of any size Raon reads pass untouched.
///
/// Each limit is checked where the bytes or values arrive, before they are kept:
/// - the bytes all parts inflate to, together: at most ``inflationRatio`` times the file's
///   size (``inflationFloor`` for small files, ``inflationCeiling`` at most), checked
///   against the sizes the ZIP declares before a part is inflated and against the bytes
///   counted as it inflates (a ZIP may declare less than it holds);
/// - one cell's or shared string's text: ``maxCellBytes``;
/// - shared strings: one per byte of the file (``sharedStringsFloor`` at least), as each
///   costs Raon some 16 bytes however little it takes in the file;
/// - cell styles: Excel's own 64,000;
/// - cells a row holds once placed by its references and padded to the widest row: 64
///   per cell written plus one row of Excel's 16,384 columns (a cell at column 99,999 in
///   each of 100,000 rows is a 500 KB file that would be 10 billion values).
///
/// The figures that set these (honest workbooks inflate 4–13 times) are in
/// docs/ROBUSTNESS.md.
struct XLSXReadLimits {
  /// Inflated bytes allowed per byte of the file.
  static let inflationRatio = 100
  /// Inflated bytes any workbook may have, however small the file.
  static let inflationFloor = 64 << 20
  /// Inflated bytes no workbook may pass (a sheet of a million programs is ~1 GB).
  static let inflationCeiling = 4 << 30
  /// Bytes of text in one cell or shared string: 1 MiB, 8 times what Excel's own limit
  /// (32,767 characters) can take in UTF-8.
  static let maxCellBytes = 1 << 20
  /// Shared strings any workbook may have, however small the file.
  static let sharedStringsFloor = 100_000
  /// Cell styles (`cellXfs/xf`): Excel's own limit.
  static let maxCellStyles = 64_000
  /// Cells one row may be padded to before the row budget applies: Excel's columns.
  static let columnsSlack = 16_384
  /// Cells kept per cell written.
  static let cellsPerCellWritten = 64

  let fileBytes: Int
  /// Bytes inflated so far, all parts together.
  private(set) var inflated = 0

  init(fileBytes: Int) { self.fileBytes = fileBytes }

  /// The most bytes the workbook's parts may inflate to.
  var inflationLimit: Int {
    let (scaled, overflow) = fileBytes.multipliedReportingOverflow(by: Self.inflationRatio)
    return min(Self.inflationCeiling, max(Self.inflationFloor, overflow ? Int.max : scaled))
  }

  /// The most shared strings the workbook may have.
  var sharedStringLimit: Int { max(Self.sharedStringsFloor, fileBytes) }

  /// Whether a part the ZIP says inflates to `declared` bytes fits what is left.
  func admits(declared: UInt64) -> Bool {
    declared <= UInt64(max(0, inflationLimit - inflated))
  }

  /// Counts `count` more inflated bytes; `false` once past the limit.
  mutating func inflate(_ count: Int) -> Bool {
    inflated += count
    return inflated <= inflationLimit
  }

  /// `12.3 MB`, `251 KB`, `1,024 bytes`, for messages.
  static func size(_ bytes: Int) -> String {
    if bytes >= 10 << 20 || (bytes >= 1 << 20 && bytes % (1 << 20) == 0) { return "\(bytes >> 20) MB" }
    if bytes >= 1 << 20 { return "\(Double((bytes * 10) >> 20) / 10) MB" }
    if bytes >= 1 << 10 { return "\(bytes >> 10) KB" }
    return "\(bytes) bytes"
  }
}
