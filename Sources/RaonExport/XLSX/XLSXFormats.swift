import CXlsxWriter
import RaonCore
import RaonDocument

/// The cell formats a report uses, created once per workbook: libxlsxwriter formats are
/// workbook objects, and reusing them keeps the per-cell cost to a pointer.
struct XLSXFormats {
  typealias Format = XLSXWorkbook.Format

  let title: Format
  let subtitle: Format
  let section: Format
  /// A table's units beside its section heading, `(단위: 건, %)`: right-aligned on the heading's rule.
  let unit: Format
  let header: Format
  /// A header turned to read upwards, each name whole (stacked one syllable a line, 종/로/구,
  /// a name broke where no word does), for the narrow count columns of the cross table.
  let verticalHeader: Format
  let label: Format
  let integer: Format
  let percent: Format
  let decimal: Format
  let signedInteger: Format
  let signedPoints: Format
  let date: Format
  let dateTime: Format
  /// Text wrapped inside its column (titles, places, fees), top-aligned.
  let wrapped: Format
  /// Text at the top of its cell (beside wrapped text in a taller row).
  let top: Format
  /// A note wrapped inside its (merged) cell.
  let wrappedNote: Format
  let coordinate: Format
  let total: Format
  let totalInteger: Format
  let totalPercent: Format
  let note: Format
  /// Text aligned as the numbers beside it (the "–" of a share of nothing).
  let rightAligned: Format
  /// A quality flag's code beside its name: quiet, set off from the share before it.
  let code: Format

  init(_ workbook: XLSXWorkbook, language: ReportLanguage) throws {
    title = try workbook.addFormat {
      format_set_bold($0)
      format_set_font_size($0, 16)
    }
    subtitle = try workbook.addFormat { format_set_font_size($0, 12) }
    section = try workbook.addFormat {
      format_set_bold($0)
      format_set_font_size($0, 12)
      format_set_bottom($0, UInt8(LXW_BORDER_THIN.rawValue))
    }
    unit = try workbook.addFormat {
      format_set_align($0, UInt8(LXW_ALIGN_RIGHT.rawValue))
      format_set_align($0, UInt8(LXW_ALIGN_VERTICAL_BOTTOM.rawValue))
      format_set_bottom($0, UInt8(LXW_BORDER_THIN.rawValue))
    }
    header = try workbook.addFormat {
      format_set_bold($0)
      format_set_bg_color($0, 0xDDEBF7)
      format_set_bottom($0, UInt8(LXW_BORDER_THIN.rawValue))
      format_set_text_wrap($0)
      format_set_align($0, UInt8(LXW_ALIGN_VERTICAL_CENTER.rawValue))
    }
    verticalHeader = try workbook.addFormat {
      format_set_bold($0)
      format_set_bg_color($0, 0xDDEBF7)
      format_set_bottom($0, UInt8(LXW_BORDER_THIN.rawValue))
      format_set_align($0, UInt8(LXW_ALIGN_CENTER.rawValue))
      format_set_align($0, UInt8(LXW_ALIGN_VERTICAL_BOTTOM.rawValue))
      // Turned to read upwards, whole (270 would stack the syllables one a line).
      format_set_rotation($0, 90)
    }
    label = try workbook.addFormat { format_set_bold($0) }
    integer = try workbook.addFormat { format_set_num_format($0, "#,##0") }
    percent = try workbook.addFormat { format_set_num_format($0, "0.0%") }
    decimal = try workbook.addFormat { format_set_num_format($0, "#,##0.0") }
    // Rises and falls marked ▲/▼ as Korean reports mark them (the sign is in the marker).
    signedInteger = try workbook.addFormat { format_set_num_format($0, "\"▲ \"#,##0;\"▼ \"#,##0;0") }
    // Differences of shares are percentage points (%p in Korean reports), stored as points.
    let points =
      language == .ko
      ? "\"▲ \"0.0\"%p\";\"▼ \"0.0\"%p\";0.0\"%p\"" : "\"▲ \"0.0\" pp\";\"▼ \"0.0\" pp\";0.0\" pp\""
    signedPoints = try workbook.addFormat { format_set_num_format($0, points) }
    date = try workbook.addFormat {
      // Days as the PDF prints them (2025. 7. 26. / 26 Jul 2025), still real dates to sort on.
      format_set_num_format($0, Self.dayFormat(language))
      // Centred: left-aligned dates ran into the right-aligned fees beside them. At the
      // top, with the wrapped title beside them.
      format_set_align($0, UInt8(LXW_ALIGN_CENTER.rawValue))
      format_set_align($0, UInt8(LXW_ALIGN_VERTICAL_TOP.rawValue))
    }
    dateTime = try workbook.addFormat {
      format_set_num_format($0, "yyyy-mm-dd hh:mm:ss \"KST\"")
      format_set_align($0, UInt8(LXW_ALIGN_LEFT.rawValue))
    }
    coordinate = try workbook.addFormat { format_set_num_format($0, "0.000000") }
    wrapped = try workbook.addFormat {
      format_set_text_wrap($0)
      format_set_align($0, UInt8(LXW_ALIGN_VERTICAL_TOP.rawValue))
    }
    top = try workbook.addFormat { format_set_align($0, UInt8(LXW_ALIGN_VERTICAL_TOP.rawValue)) }
    wrappedNote = try workbook.addFormat {
      format_set_text_wrap($0)
      format_set_italic($0)
      format_set_font_color($0, 0x595959)
      format_set_align($0, UInt8(LXW_ALIGN_VERTICAL_TOP.rawValue))
    }
    total = try workbook.addFormat {
      format_set_bold($0)
      format_set_top($0, UInt8(LXW_BORDER_THIN.rawValue))
    }
    totalInteger = try workbook.addFormat {
      format_set_bold($0)
      format_set_top($0, UInt8(LXW_BORDER_THIN.rawValue))
      format_set_num_format($0, "#,##0")
    }
    totalPercent = try workbook.addFormat {
      format_set_bold($0)
      format_set_top($0, UInt8(LXW_BORDER_THIN.rawValue))
      format_set_num_format($0, "0.0%")
    }
    note = try workbook.addFormat {
      format_set_italic($0)
      format_set_font_color($0, 0x595959)
    }
    rightAligned = try workbook.addFormat { format_set_align($0, UInt8(LXW_ALIGN_RIGHT.rawValue)) }
    code = try workbook.addFormat {
      format_set_italic($0)
      format_set_font_color($0, 0x595959)
      format_set_indent($0, 1)
    }
    // libxlsxwriter numbers a format when a cell first uses it, so the order sheets are
    // filled in would show in styles.xml: number them all now, in this fixed order, and a
    // workbook is the same bytes however its sheets were filled.
    for format in [
      title, subtitle, section, header, label, integer, percent, decimal, signedInteger,
      signedPoints, date, dateTime, coordinate, total, totalInteger, totalPercent, note, wrapped, top, wrappedNote,
      verticalHeader, code, rightAligned,
    ] {
      _ = lxw_format_get_xf_index(format)
    }
  }

  /// The number format of a day in the report's language, as ``OfficialDates`` writes it
  /// (`2025. 7. 26.`; `26 Jul 2025`).
  static func dayFormat(_ language: ReportLanguage) -> String {
    language == .ko ? "yyyy\". \"m\". \"d\".\"" : "d mmm yyyy"
  }

  /// Points of a row holding `lines` lines of the default 11-point text, as LibreOffice
  /// and Excel print them.
  static func rowHeight(lines: Int) -> Double { Double(max(lines, 1)) * 15 + 1 }

  /// Lines `text` wraps to in a column `width` characters wide (Korean counting two,
  /// ``DisplayWidth``), each explicit line break starting a line.
  static func lines(_ text: String, width: Double) -> Int {
    // Hangul prints a little wider than two of Excel's character units: 10 % to spare.
    let room = max(Int(width * 0.9) - 1, 1)
    // One pass over the scalars, for every text cell of a wrapped column (splitting into
    // lines first was a measurable part of the workbook: bench/PROFILING.md). A line feed
    // ends a line, except the LF of a CRLF, which is one character with its CR, as a split
    // on "\n" reads it.
    var lines = 0
    var lineWidth = 0
    var afterCR = false
    for scalar in text.unicodeScalars {
      if scalar == "\n", !afterCR {
        lines += max(1, (lineWidth + room - 1) / room)
        lineWidth = 0
      } else {
        lineWidth += DisplayWidth.of(scalar)
      }
      afterCR = scalar == "\r"
    }
    return lines + max(1, (lineWidth + room - 1) / room)
  }
}
