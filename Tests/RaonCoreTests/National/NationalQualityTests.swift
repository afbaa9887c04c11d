import Foundation
import RaonCore
import TestSupport
import Testing

/// The national data's quality flags on the real download, counted by event as an
/// independent Python reading of docs/NATIONAL.md counts them (never a row dropped).
@Suite("National quality flags")
struct NationalQualityTests {
  static let script = #"""
    import json, re, sys
    sys.path.insert(0, sys.argv[2])
    import national_events as ne
    rows = ne.read(sys.argv[1])
    def num(s):
        try:
            v = float(ne.trimmed(s))
            return v if v == v and abs(v) != float("inf") else None
        except ValueError:
            return None
    def amounts(text):
        found = [int(m.group(1).replace(",", "")) * 10000 for m in re.finditer(r"(\d+)\s*만\s*원", text)]
        for m in re.finditer(r"\d[\d,]*", text):
            digits = m.group(0).rstrip(",").replace(",", "")
            after = text[m.end():m.end() + 1]
            before = text[m.start() - 1:m.start()] if m.start() else ""
            if after and after in "세살개층매명인회분시년월일석차번%mM주박만천":
                continue
            if after in (".", "/", ":", "-") and text[m.end() + 1:m.end() + 2].isdigit():
                continue
            if before in (".", "/", ":") and m.start() >= 2 and text[m.start() - 2].isdigit():
                continue
            v = int(digits) if len(digits) <= 9 else None
            if v is not None and (v == 0 or v >= 100):
                found.append(v)
        return found
    events = {}
    for r in rows:
        e = events.setdefault(ne.key(r), {"end_before_start": False, "outside": False, "located": False, "free_but_priced": False})
        s, t = ne.day(r["행사시작일자"]), ne.day(r["행사종료일자"])
        if s and t and t < s:
            e["end_before_start"] = True
        a, b = num(r["위도"]), num(r["경도"])
        if a and b:
            lat, lon = (a, b) if 33 <= a <= 39 and 124 <= b <= 132 else ((b, a) if 33 <= b <= 39 and 124 <= a <= 132 else (a, b))
            if abs(lat) <= 90 and abs(lon) <= 180:
                e["located"] = True
                if not (33.0 <= lat <= 38.7 and 124.5 <= lon <= 132.0):
                    e["outside"] = True
        kind = ne.fold(r["요금정보"])
        if "무료" in kind and "유료" not in kind and any(v > 0 for v in amounts(r["관람요금"])):
            e["free_but_priced"] = True
    print(json.dumps({
        "end_before_start": sum(e["end_before_start"] for e in events.values()),
        "coords_outside_korea": sum(e["outside"] for e in events.values()),
        "coords_missing": sum(not e["located"] for e in events.values()),
        "free_but_priced": sum(e["free_but_priced"] for e in events.values()),
    }))
    """#

  @Test func theFlagsCountAsAnIndependentReadingCountsThem() throws {
    let dir = try Fixtures.temporaryDirectory("raon-national-quality")
    let file = dir.appendingPathComponent("quality.py")
    try Self.script.write(to: file, atomically: true, encoding: .utf8)
    let run = try Python.run([file.path, Fixtures.nationalCSV.path, NationalDownload.script.deletingLastPathComponent().path])
    #expect(run.status == 0, "\(run.stderr)")
    let expected = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Int])
    let events = Dictionary(
      NationalNormalizer.normalize(try NationalDownload.read().records).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    func count(_ flag: QualityFlags) -> Int { events.values.filter { $0.qualityFlags.contains(flag) }.count }
    #expect(events.count == 7_352)
    #expect(count(.endBeforeStart) == expected["end_before_start"])
    #expect(count(.coordsOutsideKorea) == expected["coords_outside_korea"])
    #expect(count(.coordsMissing) == expected["coords_missing"])
    #expect(count(.freeButPriced) == expected["free_but_priced"])
    // Every row is a session of some event: none dropped.
    #expect(events.values.reduce(0) { $0 + ($1.id.isEmpty ? 1 : 0) } == 0)
  }
}
