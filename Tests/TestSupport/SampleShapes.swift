import Foundation

/// Files of every shape the catalog is passed around in, made from the bundled sample by
/// Python (csv, openpyxl, zipfile — not Raon's code), with the figures Python reads from
/// the sample for the tests to compare with.
public enum SampleShapes {
  /// The folder holding the files and `expected.json`, made once per test process.
  public static let folder: Result<URL, Error> = Result {
    let dir = try Fixtures.temporaryDirectory("raon-shapes")
    let result = try Python.run(["-c", script, Fixtures.sampleCSV.path, dir.path])
    guard result.status == 0 else {
      throw ShapeError(description: "python3 failed: \(result.stderr.suffix(2_000))")
    }
    return dir
  }

  struct ShapeError: Error, CustomStringConvertible { var description: String }

  /// The figures Python computed from the sample.
  public struct Expected: Decodable, Sendable {
    /// `cult:NNNNNN` of every row, in order.
    public var ids: [String]
    /// Rows per 분류.
    public var categories: [String: Int]
    /// Rows with both coordinate cells non-empty.
    public var coordinateRows: Int
    /// The first ten characters of 시작일 (YYYY-MM-DD, or whatever is there).
    public var startDays: [String]
    /// Rows in the truncated files (before the cut record).
    public var rowsBeforeCut: Int
    /// The 1-based line where the cut record starts in `truncated.csv`.
    public var cutLine: Int
    /// Rows in `inline.xlsx` and `table.xls`.
    public var smallRows: Int
    /// The last ten characters of each row's end day (종료일, else the end of 날짜/시간),
    /// `""` when there is none.
    public var endDays: [String]
    /// Field names of the sample's header.
    public var header: [String]
    /// SHA-256 of the sample file.
    public var sampleSHA256: String
    /// `no-free-flag.csv` (the sample without 유무료, as before 2024), per 분류: programs
    /// whose fee text says 무료 and quotes no amount above zero, that quote one and do not
    /// say 무료, and the rest — by Python's own reading of the fee texts.
    public var noFlagFree: [String: Int]
    public var noFlagPaid: [String: Int]
    public var noFlagUnknown: [String: Int]
    /// `layout-2026.csv`: each row's 문의 and 행사시간, as written.
    public var inquiries: [String]
    public var eventTimes: [String]
  }

  public static func url(_ name: String) throws -> URL { try folder.get().appendingPathComponent(name) }

  public static func expected() throws -> Expected {
    try JSONDecoder().decode(Expected.self, from: Data(contentsOf: url("expected.json")))
  }

  static let script = #"""
import csv, datetime, html, io, json, os, re, sys, zipfile
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

src, out = sys.argv[1], sys.argv[2]
text = open(src, "rb").read().decode("cp949", errors="replace")
rows = list(csv.reader(io.StringIO(text, newline="")))
header, data = rows[0], rows[1:]
col = {name: i for i, name in enumerate(header)}

def cult(row):
    m = re.search(r"cultcode=(\d+)", row[col["문화포털상세URL"]])
    return "cult:" + m.group(1)

cats = {}
for r in data:
    cats[r[col["분류"]]] = cats.get(r[col["분류"]], 0) + 1
lat, lon = col["위도(X좌표)"], col["경도(Y좌표)"]
coordinate_rows = sum(1 for r in data if r[lat].strip() and r[lon].strip())

def write_csv(name, head, body, bom=True, tail="\r\n"):
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(head)
    for r in body:
        w.writerow(r)
    s = buf.getvalue()
    if tail != "\r\n":
        s = s[:-2] + tail
    with open(os.path.join(out, name), "wb") as f:
        f.write(("\ufeff" if bom else "").encode() + s.encode("utf-8"))

# 1. Re-labelled by a script: 번호 first, punctuation as _, odd spaces and case.
def scripted(label):
    return re.sub(r"[^0-9A-Za-z가-힣]", "_", label)
relabelled = ["번호"] + [scripted(h) for h in header]
relabelled[relabelled.index("문화포털상세URL")] = "문화포털상세url"
relabelled[relabelled.index("이용대상")] = "이용\u00a0대상 "
write_csv("relabelled.csv", relabelled, [[str(i + 1)] + r for i, r in enumerate(data)])

# 2. A coordinate column under a label nobody knows.
unknown = list(header)
unknown[lat] = "좌표값1"
write_csv("unknown-label.csv", unknown, data)

# 3. Truncated: cut inside record 323 (after its fifth field), no line break after it;
#    and cut at a record boundary.
cut = 322
write_csv("truncated.csv", header, data[:cut] + [data[cut][:5]], tail="")
write_csv("cut-at-boundary.csv", header, data[:cut])
# The line the cut record starts on: 1 + lines of the header and the records before it.
buf = io.StringIO(newline="")
w = csv.writer(buf, lineterminator="\r\n")
w.writerow(header)
for r in data[:cut]:
    w.writerow(r)
before = buf.getvalue()
cut_line = before.count("\n") + len(re.findall(r"\r(?!\n)", before)) + 1

# 4. The whole sample as .xlsx: strings as shared strings, coordinates as numbers,
#    시작일/종료일 as dates (Excel serials).
wb = Workbook()
ws = wb.active
ws.title = "문화행사"
ws.append(header)
clean = lambda v: ILLEGAL_CHARACTERS_RE.sub("", v)
for r in data:
    cells = [clean(v) for v in r]
    for c in (lat, lon):
        try:
            cells[c] = float(r[c]) if r[c].strip() else None
        except ValueError:
            pass
    for c in (col["시작일"], col["종료일"]):
        m = re.match(r"(\d{4})-(\d{2})-(\d{2})", r[c])
        if m:
            cells[c] = datetime.datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    ws.append(cells)
for row in ws.iter_rows(min_row=2):
    for c in (col["시작일"], col["종료일"]):
        row[c].number_format = "yyyy-mm-dd hh:mm:ss"
wb.create_sheet("다른 시트").append(["not", "the", "catalog"])
wb.save(os.path.join(out, "sample.xlsx"))

# 5. A hand-made workbook with inline strings, its catalog on the first of two sheets
#    (the sheets listed in the other order in the ZIP), numbers and a 1904 date system.
small = data[:40]
def col_name(i):
    s = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        s = chr(65 + rem) + s
    return s
def inline_row(n, values):
    cells = []
    for i, v in enumerate(values):
        ref = f"{col_name(i)}{n}"
        if isinstance(v, float):
            cells.append(f'<c r="{ref}"><v>{v!r}</v></c>')
        elif isinstance(v, tuple):
            cells.append(f'<c r="{ref}" s="1"><v>{v[0]}</v></c>')
        elif v != "":
            cells.append(f'<c r="{ref}" t="inlineStr"><is><t xml:space="preserve">{html.escape(clean(v), quote=False)}</t></is></c>')
    return f'<row r="{n}">' + "".join(cells) + "</row>"
def serial1904(day):
    y, m, d = (int(x) for x in day.split("-"))
    return (datetime.date(y, m, d) - datetime.date(1904, 1, 1)).days
sheet_rows = [inline_row(1, header)]
for k, r in enumerate(small):
    values = list(r)
    if r[lat].strip() and r[lon].strip():
        values[lat], values[lon] = float(r[lat]), float(r[lon])
    for c in (col["시작일"], col["종료일"]):
        if re.match(r"\d{4}-\d{2}-\d{2}", r[c]):
            values[c] = (serial1904(r[c][:10]),)
    sheet_rows.append(inline_row(k + 3, values))  # row 2 left blank
ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
with zipfile.ZipFile(os.path.join(out, "inline.xlsx"), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
    z.writestr("xl/worksheets/sheet1.xml", f'<?xml version="1.0"?><worksheet {ns}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>wrong sheet</t></is></c></row></sheetData></worksheet>')
    z.writestr("xl/worksheets/sheet2.xml", f'<?xml version="1.0"?><worksheet {ns}><sheetData>' + "".join(sheet_rows) + "</sheetData></worksheet>")
    z.writestr("xl/workbook.xml", f'<?xml version="1.0"?><workbook {ns}><workbookPr date1904="1"/><sheets><sheet name="catalog" sheetId="2" r:id="rId7"/><sheet name="other" sheetId="1" r:id="rId3"/></sheets></workbook>')
    z.writestr("xl/_rels/workbook.xml.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId7" Type="worksheet" Target="/xl/worksheets/sheet2.xml"/></Relationships>')
    z.writestr("xl/styles.xml", '<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/></numFmts><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs></styleSheet>')

# 6. An HTML table under an .xls name, as some portals serve it.
cells = lambda tag, r: "".join(f"<{tag}>{html.escape(v).replace(chr(10), '<br>')}</{tag}>" for v in r)
page = ['<html><head><meta charset="utf-8"><style>td { color: red }</style></head><body>',
        "<!-- exported <table> -->", "<table border=1>", "<tr>" + cells("th", header) + "</tr>"]
page += ["<tr>" + cells("td", r) + "</tr>" for r in small]
page += ["</table>", "<table><tr><td>another table</td></tr></table></body></html>"]
open(os.path.join(out, "table.xls"), "w", encoding="utf-8").write("\n".join(page))

# 7. A binary .xls (an OLE2 compound file header) and a ZIP that is no workbook.
open(os.path.join(out, "binary.xls"), "wb").write(bytes.fromhex("D0CF11E0A1B11AE1") + bytes(range(256)) * 4)
with zipfile.ZipFile(os.path.join(out, "photos.zip"), "w") as z:
    z.writestr("readme.txt", "not a catalog")

# 8. The sample without its 유무료 column, as catalogs before 2024 came; what Python reads
#    from each fee text: 무료 and no amount above zero → free, an amount above zero and no
#    무료 → paid, else unknown. An amount needs a won unit (원, ₩, KRW), as the README says.
free_at = col["유무료"]
write_csv("no-free-flag.csv", [h for i, h in enumerate(header) if i != free_at],
          [[v for i, v in enumerate(r) if i != free_at] for r in data])
def amounts(text):
    found = []
    for m in re.finditer(r"(\d[\d,]*(?:\.\d+)?)\s*(만|천)?\s*(원|KRW)", text):
        n = float(m.group(1).replace(",", "") or 0)
        # 천 follows one digit in a written amount (1만5천원); "3000천원" is no amount.
        if m.group(2) == "천" and n >= 10:
            continue
        found.append(n * (10000 if m.group(2) == "만" else 1000 if m.group(2) == "천" else 1))
    for m in re.finditer(r"₩\s*(\d[\d,]*)", text):
        found.append(float(m.group(1).replace(",", "")))
    return found
no_flag = {"free": {}, "paid": {}, "unknown": {}}
for r in data:
    fee = r[col["이용요금"]].strip()
    says_free, priced = "무료" in fee, any(a > 0 for a in amounts(fee))
    kind = "free" if says_free and not priced else "paid" if priced and not says_free else "unknown"
    no_flag[kind][r[col["분류"]]] = no_flag[kind].get(r[col["분류"]], 0) + 1

# 9. Today's layout (2026): 문의 after 이용요금, 행사시간 last, and the coordinate columns
#    labelled 경도(Y좌표) / 위도(X좌표) in that order, each holding its own axis.
fee_at = col["이용요금"]
head26 = header[:fee_at + 1] + ["문의"] + header[fee_at + 1:]
lat26, lon26 = head26.index("위도(X좌표)"), head26.index("경도(Y좌표)")
head26[lat26], head26[lon26] = "경도(Y좌표)", "위도(X좌표)"
head26.append("행사시간")
rows26, inquiries, event_times = [], [], []
for k, r in enumerate(data):
    inquiry = f"02-{1000 + k % 9000}-{k:04d}" if k % 3 else ""
    event_time = ["", "19:30", "평일 10:00~18:00 (월요일 휴관)"][k % 3]
    row = r[:fee_at + 1] + [inquiry] + r[fee_at + 1:] + [event_time]
    row[lat26], row[lon26] = r[lon], r[lat]   # the values follow their new labels
    rows26.append(row); inquiries.append(inquiry); event_times.append(event_time)
write_csv("layout-2026.csv", head26, rows26)

def end_day(r):
    m = re.match(r"(\d{4})-(\d{2})-(\d{2})", r[col["종료일"]])
    if m:
        return m.group(0)
    days = re.findall(r"\d{4}-\d{2}-\d{2}", r[col["날짜/시간"]])
    return days[-1] if days else ""

import hashlib
json.dump({
    "endDays": [end_day(r) for r in data], "header": header,
    "sampleSHA256": hashlib.sha256(open(src, "rb").read()).hexdigest(),
    "ids": [cult(r) for r in data], "categories": cats, "coordinateRows": coordinate_rows,
    "startDays": [r[col["시작일"]][:10] for r in data], "rowsBeforeCut": cut,
    "cutLine": cut_line, "smallRows": len(small),
    "noFlagFree": no_flag["free"], "noFlagPaid": no_flag["paid"], "noFlagUnknown": no_flag["unknown"],
    "inquiries": inquiries, "eventTimes": event_times,
}, open(os.path.join(out, "expected.json"), "w"), ensure_ascii=False)
"""#
}
