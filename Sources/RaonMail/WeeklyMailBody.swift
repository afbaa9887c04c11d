import Foundation
import RaonCore

/// The two bodies of a weekly message, rendered from its ``WeeklySummary`` and the list of
/// what is attached: plain text for any mail client, and HTML with inline styles (mail
/// clients drop style sheets) that reads like page 1. Pure.
public enum WeeklyMailBody {
  /// A file as the body lists it: its name and size.
  public struct Listed: Sendable, Equatable {
    public var fileName: String
    public var bytes: Int
    /// Where the file is when a message is sent in parts ("이 메일", "2/2 메일"); nil otherwise.
    public var carriedIn: String?

    public init(fileName: String, bytes: Int, carriedIn: String? = nil) {
      self.fileName = fileName
      self.bytes = bytes
      self.carriedIn = carriedIn
    }

    var shown: String { "\(fileName) (\(size(bytes)))" + (carriedIn.map { " — \($0)" } ?? "") }
  }

  /// The plain-text body: the table aligned for a monospaced font (Korean counts two columns).
  ///
  /// `partNote` says, under the list of files, that the files come in several messages.
  public static func text(_ s: WeeklySummary, attachments: [Listed], partNote: String? = nil, footer: String) -> String {
    var out = "\(s.title)\n\(plain(s.period)) · \(plain(s.dataAsOf))\n\n"
    out += "\(s.sentencesHeading)\n"
    for sentence in s.sentences { out += "- \(plain(sentence))\n" }
    out += "\n\(s.headlineHeading)\n"
    let table = [s.headline.header] + s.headline.rows
    let columns = table.map(\.count).max() ?? 0
    let widths = (0..<columns).map { c in table.map { $0.count > c ? DisplayWidth.of($0[c]) : 0 }.max() ?? 0 }
    for (r, row) in table.enumerated() {
      let cells = row.enumerated().map { c, cell in
        c == 0 ? DisplayWidth.padded(cell, to: widths[c]) : DisplayWidth.leftPadded(cell, to: widths[c])
      }
      out += cells.joined(separator: "  ") + "\n"
      if r == 0 { out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
    }
    if !attachments.isEmpty {
      out += "\n\(s.attachmentsHeading)\n"
      for (i, file) in attachments.enumerated() {
        out += "  \(i + 1). \(file.shown)\n"
      }
    }
    if let partNote { out += "\n\(partNote)\n" }
    out += "\n\(plain(s.sourceLine))\n\n-- \n\(footer)\n"
    return out
  }

  /// The HTML body: one self-contained page, inline styles, no external resource.
  public static func html(_ s: WeeklySummary, attachments: [Listed], partNote: String? = nil, footer: String) -> String {
    let font = "font-family:'Noto Sans CJK KR','Malgun Gothic','Apple SD Gothic Neo',sans-serif"
    let cell = "border:1px solid #999;padding:4px 8px"
    var out = """
      <!DOCTYPE html>
      <html lang="\(escapeHTML(s.language))"><head><meta charset="utf-8"><title>\(escapeHTML(s.title))</title></head>
      <body style="\(font);color:#111;font-size:14px;line-height:1.6;max-width:720px;margin:0 auto;padding:16px">
      <h1 style="font-size:20px;margin:0 0 4px 0;border-bottom:2px solid #333;padding-bottom:4px">\(escapeHTML(s.title))</h1>
      <p style="margin:4px 0 16px 0"><strong>\(escapeHTML(s.period))</strong> · \(escapeHTML(s.dataAsOf))</p>
      <h2 style="font-size:16px;margin:16px 0 4px 0">\(escapeHTML(s.sentencesHeading))</h2>
      <ul style="margin:0;padding-left:20px">

      """
    for sentence in s.sentences { out += "<li>\(escapeHTML(sentence))</li>\n" }
    out += """
      </ul>
      <h2 style="font-size:16px;margin:16px 0 4px 0">\(escapeHTML(s.headlineHeading))</h2>
      <table style="border-collapse:collapse;font-size:14px">
      <thead><tr>
      """
    for (c, title) in s.headline.header.enumerated() {
      out += "<th style=\"\(cell);background:#eee;text-align:\(c == 0 ? "left" : "right")\">\(escapeHTML(title))</th>"
    }
    out += "</tr></thead>\n<tbody>\n"
    for row in s.headline.rows {
      out += "<tr>"
      for (c, value) in row.enumerated() {
        out += "<td style=\"\(cell);text-align:\(c == 0 ? "left" : "right")\">\(escapeHTML(value))</td>"
      }
      out += "</tr>\n"
    }
    out += "</tbody></table>\n"
    if !attachments.isEmpty {
      out += "<p style=\"margin:16px 0 4px 0\"><strong>\(escapeHTML(s.attachmentsHeading))</strong></p>\n<ol style=\"margin:0;padding-left:24px\">\n"
      for file in attachments {
        out += "<li>\(escapeHTML(file.shown))</li>\n"
      }
      out += "</ol>\n"
    }
    if let partNote { out += "<p style=\"margin:8px 0 0 0\"><strong>\(escapeHTML(partNote))</strong></p>\n" }
    out += """
      <p style="margin:16px 0 0 0;color:#444;font-size:13px">\(escapeHTML(s.sourceLine))</p>
      <p style="margin:24px 0 0 0;color:#666;font-size:12px;border-top:1px solid #ccc;padding-top:8px">\(escapeHTML(footer).replacingOccurrences(of: "\n", with: "<br>"))</p>
      </body></html>

      """
    return out
  }

  /// `1.2 MB`, `340 KB`, `512 B` (decimal units, as mail clients show sizes).
  public static func size(_ bytes: Int) -> String {
    if bytes >= 1_000_000 { return String(format: "%.1f MB", Double(bytes) / 1_000_000) }
    if bytes >= 1_000 { return "\(Int((Double(bytes) / 1_000).rounded())) KB" }
    return "\(bytes) B"
  }

  /// No-break spaces (official dates keep them together on paper) as plain spaces.
  static func plain(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{00A0}", with: " ")
  }

  public static func escapeHTML(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
