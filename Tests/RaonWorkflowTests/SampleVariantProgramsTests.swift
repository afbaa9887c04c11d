import Foundation
import RaonCore
import RaonIngest
import TestSupport
import Testing

/// Other downloads of the same catalog — UTF-8 with a BOM, coordinate labels the other way
/// round, 시작일/종료일 destroyed by a spreadsheet re-save — give the same programs.
/// The variants are written by Python's csv module, not by Raon.
@Suite struct SampleVariantProgramsTests {
  static let script = #"""
    import csv, io, sys
    src, out, kind = sys.argv[1], sys.argv[2], sys.argv[3]
    text = open(src, "rb").read().decode("cp949", errors="replace")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    h = rows[0]
    if kind == "swapped-labels":
        a, b = h.index("위도(X좌표)"), h.index("경도(Y좌표)")
        h[a], h[b] = "경도(X좌표)", "위도(Y좌표)"
    if kind == "destroyed-dates":
        s, e = h.index("시작일"), h.index("종료일")
        for r in rows[1:]:
            r[s] = r[e] = "00:00.0"
    with open(out, "w", encoding="utf-8-sig" if kind == "bom" else "utf-8", newline="") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)
    """#

  static func variant(_ kind: String, in dir: URL) throws -> [Program] {
    let out = dir.appendingPathComponent("\(kind).csv")
    let made = try Python.run(["-c", script, Fixtures.sampleCSV.path, out.path, kind])
    #expect(made.status == 0, "\(made.stderr)")
    return try CatalogFileReader.read(out).records.map(ProgramNormalizer.normalize)
  }

  /// Programs with the flags that only say how the source was encoded taken out.
  static func comparable(_ programs: [Program]) -> [Program] {
    programs.map {
      var p = $0
      p.qualityFlags.subtract([.invalidBytesReplaced, .datesFromRangeText])
      return p
    }
  }

  @Test(arguments: ["bom", "swapped-labels", "destroyed-dates"])
  func aVariantGivesTheSamePrograms(kind: String) throws {
    let dir = try Fixtures.temporaryDirectory("raon-variants")
    defer { try? FileManager.default.removeItem(at: dir) }
    let original = try CatalogFileReader.read(Fixtures.sampleCSV).records.map(ProgramNormalizer.normalize)
    let copy = try Self.variant(kind, in: dir)
    #expect(copy.count == 4998)
    #expect(Self.comparable(copy) == Self.comparable(original))
    // Same dates, field by field (the heart of the destroyed-dates case).
    #expect(copy.map(\.startDate) == original.map(\.startDate))
    #expect(copy.map(\.endDate) == original.map(\.endDate))
    #expect(copy.map(\.latitude) == original.map(\.latitude))
    let fromRangeText = copy.filter { $0.qualityFlags.contains(.datesFromRangeText) }.count
    #expect(fromRangeText == (kind == "destroyed-dates" ? 4998 : 0))
  }
}
