import Foundation
import TestSupport
import Testing

/// Issue 47, tables that never overprint: the PDFs a real headless Chromium prints of the
/// city, a large and a small pack, the English city report, and a national report and its
/// 시·도's pack, read back with PyMuPDF (`pdf_overprint.py`, no Raon code): no text of one
/// cell runs into another's on any page. Before, a fixed share of the width per column let
/// "Education/Experience" run over the district beside it (136 places in the English
/// PDF) and provider names over the place in the national one (424).
@Suite(.serialized) struct PrintLayoutEndToEndTests {
  static let script = LeanPacksEndToEndTests.scripts.appendingPathComponent("pdf_overprint.py").path

  /// The checker's findings for each PDF: pages, spans read, overprinting pairs.
  static func check(_ pdfs: [URL]) throws -> [String: (pages: Int, spans: Int, overprints: [[Any]])] {
    let read = try Python.run([script] + pdfs.map(\.path))
    #expect(read.status == 0, "\(read.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: [String: Any]])
    return json.mapValues {
      ($0["pages"] as? Int ?? 0, $0["spans"] as? Int ?? 0, $0["overprints"] as? [[Any]] ?? [])
    }
  }

  @Test func noTextRunsIntoAnotherCellOnAnyPrintedPage() throws {
    let chromium = try HTMLReportEndToEndTests.chromium()
    let (dir, next) = try LeanPacksEndToEndTests.twoWeeks("raon-print-layout")
    defer { try? FileManager.default.removeItem(at: dir) }

    // The checker sees overprinting when there is some: a name kept whole in a column too
    // narrow for it, printed by the same Chromium.
    let bad = dir.appendingPathComponent("bad.html")
    try """
      <!DOCTYPE html><html><head><meta charset="utf-8"><style>
      table { table-layout: fixed; width: 100%; } td { white-space: nowrap; font-size: 9pt; }
      </style></head><body><table><colgroup><col style="width:8%"><col style="width:92%"></colgroup>
      <tr><td>Education/Experience</td><td>Jongno-gu</td></tr></table></body></html>
      """.write(to: bad, atomically: true, encoding: .utf8)
    let badPDF = dir.appendingPathComponent("bad.pdf")
    var arguments = HTMLReportEndToEndTests.chromiumArguments(profile: dir.appendingPathComponent("profile"))
    arguments += ["--no-pdf-header-footer", "--print-to-pdf=\(badPDF.path)", bad.absoluteURL.absoluteString]
    let printed = try HTMLReportEndToEndTests.run(chromium, arguments)
    #expect(printed.status == 0, "\(printed.stderr.suffix(300))")
    #expect(try Self.check([badPDF])[badPDF.path]?.overprints.isEmpty == false, "the checker missed the overprint")

    let ko = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--input", next.path, "--taken-at", "2024-09-16", "--out", "ko",
       "--format", "pdf", "--district", "종로구", "--district", "서대문구"], in: dir)
    try #require(ko.status == 0, "stderr: \(ko.stderr)")
    let en = try RaonProcess.run(
      ["report", "--db", "store.sqlite", "--snapshot", "latest", "--out", "en", "--format", "pdf", "--lang", "en"], in: dir)
    try #require(en.status == 0, "stderr: \(en.stderr)")
    let recorded = try RaonProcess.run(
      ["snapshot", "--catalog", "national", "--db", "national.sqlite", NationalReportEndToEndTests.download.path,
       "--taken-at", "2025-03-31"], in: dir)
    try #require(recorded.status == 0, "stderr: \(recorded.stderr)")
    let national = try RaonProcess.run(
      ["report", "--db", "national.sqlite", "--region", "경상북도", "--out", "nat", "--format", "pdf"], in: dir)
    try #require(national.status == 0, "stderr: \(national.stderr)")

    let pdfs = ["ko", "ko/districts/종로구", "ko/districts/서대문구", "en", "nat", "nat/regions/경상북도"]
      .map { dir.appendingPathComponent($0).appendingPathComponent("report.pdf") }
    let found = try Self.check(pdfs)
    for pdf in pdfs {
      let name = pdf.deletingLastPathComponent().path.replacingOccurrences(of: dir.path + "/", with: "")
      let result = try #require(found[pdf.path], "\(name): not read")
      #expect(result.pages > 1 && result.spans > 100, "\(name): \(result.pages) pages, \(result.spans) spans")
      #expect(result.overprints.isEmpty, "\(name): \(result.overprints.count) overprints, first \(result.overprints.prefix(3))")
    }
  }
}
