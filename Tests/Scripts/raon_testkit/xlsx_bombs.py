"""Small .xlsx files that inflate to a great deal (issue 37, major 6), written by Python's
zipfile streaming deflate (never Raon's code), and a peak-memory runner.

    python3 -m raon_testkit.xlsx_bombs KIND OUT.xlsx [SIZE]   # write one bomb
    python3 -m raon_testkit.xlsx_bombs peak CMD ARGS...       # run CMD (at most 8 GiB mapped);
                                                                # print its exit status and
                                                                # peak RSS (KiB) as JSON

Kinds (SIZE is the number the kind names; the issue's figures are the defaults):
  cell MB          one inline-string cell of MB megabytes of 'a' (250: 251 KiB on disk)
  shared MB        one shared string of MB megabytes (500)
  empty-shared N   N empty shared strings <si/> (80,000,000: ~571 KiB)
  sparse N         N rows, each one cell at column 99,999 (a row padded to 100,000 cells)
  styles N         N cell styles <xf/> in styles.xml
  rels N           N relationships, each its own id, in workbook.xml.rels (5,000,000)
  lying MB         a sheet whose ZIP entry declares 1 KB but inflates to MB megabytes of rows
Every bomb has the catalog's header row (the sample's 22 columns) and one real row, so only
its size can refuse it.
"""
import json
import os
import resource
import struct
import subprocess
import sys
import zipfile
import zlib

HEADER = ["분류", "자치구", "공연/행사명", "날짜/시간", "장소", "기관명", "이용대상", "이용요금", "출연자정보",
          "프로그램소개", "기타내용", "홈페이지 주소", "대표이미지", "신청일", "시민/기관", "시작일", "종료일",
          "테마분류", "위도(X좌표)", "경도(Y좌표)", "유무료", "문화포털상세URL"]
ROW = ["교육/체험", "강남구", "어린이 미술 교실", "2024-09-10~2024-09-12", "강남구민회관", "강남구청", "누구나", "",
       "", "", "", "https://www.gangnam.go.kr", "", "", "기관", "2024-09-10 00:00:00.0", "2024-09-12 00:00:00.0",
       "", "37.5", "127.0", "무료", "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=910001"]
NS = ('xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"')
CHUNK = 1 << 20


def col_name(i):
    s = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        s = chr(65 + rem) + s
    return s


def esc(v):
    return v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def inline_row(n, values):
    return (f'<row r="{n}">' + "".join(
        f'<c r="{col_name(i)}{n}" t="inlineStr"><is><t>{esc(v)}</t></is></c>' for i, v in enumerate(values) if v)
        + "</row>")


def repeat(f, unit, count):
    """Writes `unit` `count` times in chunks of about a megabyte."""
    unit = unit.encode() if isinstance(unit, str) else unit
    per = max(1, CHUNK // len(unit))
    block = unit * per
    while count >= per:
        f.write(block)
        count -= per
    f.write(unit * count)


def book(z, shared=None, styles=None, rels_extra=0, sheet=None):
    z.writestr("[Content_Types].xml",
               '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
    z.writestr("xl/workbook.xml", f'<?xml version="1.0"?><workbook {NS}><sheets>'
               '<sheet name="catalog" sheetId="1" r:id="rId1"/></sheets></workbook>')
    with z.open("xl/_rels/workbook.xml.rels", "w", force_zip64=True) as f:
        f.write(b'<?xml version="1.0"?><Relationships '
                b'xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                b'<Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/>')
        for start in range(0, rels_extra, 10_000):
            f.write("".join(f'<Relationship Id="rId{k + 2}" Type="x" Target="x{k}.xml"/>'
                            for k in range(start, min(rels_extra, start + 10_000))).encode())
        f.write(b"</Relationships>")
    if shared:
        with z.open("xl/sharedStrings.xml", "w", force_zip64=True) as f:
            f.write(f'<?xml version="1.0"?><sst {NS}>'.encode())
            shared(f)
            f.write(b"</sst>")
    if styles:
        with z.open("xl/styles.xml", "w", force_zip64=True) as f:
            f.write(f'<?xml version="1.0"?><styleSheet {NS}><cellXfs>'.encode())
            styles(f)
            f.write(b"</cellXfs></styleSheet>")
    with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
        f.write(f'<?xml version="1.0"?><worksheet {NS}><sheetData>'.encode())
        f.write(inline_row(1, HEADER).encode())
        f.write(inline_row(2, ROW).encode())
        if sheet:
            sheet(f)
        f.write(b"</sheetData></worksheet>")


def write(kind, out, size=None):
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        if kind == "cell":
            mb = size or 250

            def sheet(f):
                f.write(b'<row r="3"><c r="A3" t="inlineStr"><is><t>')
                repeat(f, b"a", mb << 20)
                f.write(b'</t></is></c><c r="V3" t="inlineStr"><is><t>https://culture.seoul.go.kr/x?cultcode=910002'
                        b'</t></is></c></row>')
            book(z, sheet=sheet)
        elif kind == "shared":
            mb = size or 500

            def shared(f):
                f.write(b"<si><t>")
                repeat(f, b"a", mb << 20)
                f.write(b"</t></si>")
            book(z, shared=shared, sheet=lambda f: f.write(b'<row r="3"><c r="A3" t="s"><v>0</v></c></row>'))
        elif kind == "empty-shared":
            book(z, shared=lambda f: repeat(f, b"<si/>", size or 80_000_000))
        elif kind == "sparse":
            n = size or 100_000

            def sheet(f):
                for r in range(3, n + 3):
                    f.write(f'<row r="{r}"><c r="{col_name(99_999)}{r}" t="inlineStr"><is><t>x</t></is></c></row>'
                            .encode())
            book(z, sheet=sheet)
        elif kind == "styles":
            book(z, styles=lambda f: repeat(f, b'<xf numFmtId="14"/>', size or 50_000_000))
        elif kind == "rels":
            book(z, rels_extra=size or 5_000_000)
        elif kind == "lying":
            book(z)
        else:
            raise SystemExit(f"unknown kind {kind}")
    if kind == "lying":
        lie(out, size or 300)


def lie(path, mb):
    """Replaces the sheet by one of `mb` megabytes whose ZIP headers declare 1,024 bytes."""
    body = (f'<?xml version="1.0"?><worksheet {NS}><sheetData>' + inline_row(1, HEADER) + inline_row(2, ROW)
            + '<row r="3"><c r="A3" t="inlineStr"><is><t>').encode()
    tail = b"</t></is></c></row></sheetData></worksheet>"
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = comp.compress(body)
    crc = zlib.crc32(body)
    # Rows of one 1 KB cell: no cell is over any limit, only the bytes are.
    block = b"a" * 1000 + b'</t></is></c></row><row><c r="A4" t="inlineStr"><is><t>'
    block = block * (CHUNK // len(block))
    for _ in range(mb):
        data += comp.compress(block)
        crc = zlib.crc32(block, crc)
    data += comp.compress(tail) + comp.flush()
    crc = zlib.crc32(tail, crc)
    with zipfile.ZipFile(path) as z:
        parts = [(i.filename, z.read(i.filename)) for i in z.infolist() if i.filename != "xl/worksheets/sheet1.xml"]
    # A hand-written archive: the sheet's local header and central directory entry say
    # 1,024 bytes uncompressed.
    out = bytearray()
    central = bytearray()
    entries = [(n, zlib.compress(b, 9)[2:-4], zlib.crc32(b), len(b)) for n, b in parts]
    entries.append(("xl/worksheets/sheet1.xml", data, crc, 1024))
    for name, comp_data, c, usize in entries:
        offset = len(out)
        fname = name.encode()
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, c, len(comp_data), usize, len(fname), 0)
        out += fname + comp_data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, c, len(comp_data), usize,
                               len(fname), 0, 0, 0, 0, 0, offset) + fname
    cd_offset = len(out)
    out += central
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), cd_offset, 0)
    with open(path, "wb") as fh:
        fh.write(out)


# What the command may map (RLIMIT_AS), so that a bomb a build fails to refuse ends in a
# failed allocation rather than in the machine's out-of-memory killer (not under a
# sanitizer, whose shadow memory needs terabytes of address space).
CAP_BYTES = 8 << 30


def cap():
    if not any(k.endswith("SAN_OPTIONS") for k in os.environ):
        resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))


def peak(cmd):
    """Runs `cmd` under CAP_BYTES; its exit status, peak resident memory (ru_maxrss, KiB =
    VmHWM) and the last line of its standard error."""
    r = subprocess.run(cmd, capture_output=True, preexec_fn=cap)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    err = r.stderr.decode("utf-8", "replace").strip().splitlines()
    return {"status": r.returncode, "peak_kib": rss, "stderr": err[-1] if err else "",
            "stderr_lines": len(err)}


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "peak":
        print(json.dumps(peak(sys.argv[2:]), ensure_ascii=False))
    elif len(sys.argv) in (3, 4):
        write(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else None)
        print(os.path.getsize(sys.argv[2]))
    else:
        raise SystemExit(__doc__)
