"""Reads a site written by `raon site` on a national store, as a person would look at it,
without Raon's code: what the home page links to, each 시·도 page's figures, each week's
reports' headline, and which links lead nowhere.

  python3 national_site_read.py SITE_DIR
    -> {"index": {"regions": [name...], "weeks": [href...], "source": bool, "h1": str},
        "regions": {name: {"listed": n, "rows": [[week, events, running]...], "weeks": [href...]}},
        "reports": {"weeks/W/report.html" or "weeks/W/regions/NAME/report.html": running},
        "programs": n, "broken": [href...], "words": {file: [word...]}, "folders": [top-level names]}

"rows" are the page's trend table: its week column, 전체 행사 and 그 주 운영. "words" are
Seoul's words found in a page's own text (index, trend, 시·도 pages and every week report).
"""
import html.parser, json, os, re, sys, urllib.parse

site = os.path.abspath(sys.argv[1])
SEOUL_WORDS = ["자치구", "서울시 문화행사", "열린데이터광장", "25개", "서울시 전체"]

class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.h1, self.h2, self.tables, self.text = [], "", [], [], []
        self._tag, self._cell, self._row, self._table = None, None, None, None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag in ("h1", "h2"):
            self._tag = tag
            if tag == "h2":
                self.h2.append("")
        if tag == "table":
            self._table = []
        if tag == "tr" and self._table is not None:
            self._row = []
        if tag in ("td", "th") and self._row is not None:
            self._cell = ""
    def handle_endtag(self, tag):
        if tag in ("h1", "h2"):
            self._tag = None
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell.strip())
            self._cell = None
        if tag == "tr" and self._row is not None:
            self._table.append(self._row)
            self._row = None
        if tag == "table" and self._table is not None:
            self.tables.append(self._table)
            self._table = None
    def handle_data(self, data):
        self.text.append(data)
        if self._tag == "h1":
            self.h1 += data
        elif self._tag == "h2":
            self.h2[-1] += data
        if self._cell is not None:
            self._cell += data

def parse(path):
    p = Page()
    p.feed(open(path, encoding="utf-8").read())
    return p

def number(text):
    return int(text.replace(",", "")) if re.fullmatch(r"[\d,]+", text) else None

broken, words = [], {}
def follow(page_path, p):
    for href in p.links:
        if href.startswith(("http:", "https:", "#")):
            continue
        target = urllib.parse.unquote(href.split("?")[0].split("#")[0])
        full = os.path.normpath(os.path.join(os.path.dirname(page_path), target))
        if not os.path.exists(full):
            broken.append(os.path.relpath(page_path, site) + " -> " + href)

def seoul_words(page_path, p):
    found = [w for w in SEOUL_WORDS if w in "".join(p.text)]
    if found:
        words[os.path.relpath(page_path, site)] = found

index_path = os.path.join(site, "index.html")
index = parse(index_path)
follow(index_path, index)
seoul_words(index_path, index)
out = {"index": {
    "h1": index.h1.strip(),
    "regions": [urllib.parse.unquote(h)[len("regions/"):-len(".html")] for h in index.links if h.startswith("regions/")],
    "weeks": [h for h in index.links if h.startswith("weeks/")],
    "source": "출처: 공공데이터포털 「전국공연행사정보표준데이터」" in "".join(index.text)}}
trend_path = os.path.join(site, "trend.html")
trend = parse(trend_path)
follow(trend_path, trend)
seoul_words(trend_path, trend)

out["regions"] = {}
for name in sorted(os.listdir(os.path.join(site, "regions"))):
    path = os.path.join(site, "regions", name)
    p = parse(path)
    follow(path, p)
    seoul_words(path, p)
    listed = next((int(m.group(1)) for h in p.h2 for m in [re.search(r"\((\d[\d,]*)건\)", h)] if m), None)
    table = p.tables[-1]
    head = table[0]
    rows = [[r[0], number(r[head.index("전체 행사")]), number(r[head.index("그 주 운영")])] for r in table[1:]]
    out["regions"][name[:-len(".html")]] = {
        "listed": listed, "rows": rows,
        "weeks": [urllib.parse.unquote(h) for h in p.links if "/weeks/" in h or h.startswith("../weeks/")]}

out["reports"] = {}
for root, dirs, files in os.walk(os.path.join(site, "weeks")):
    if "report.html" in files:
        path = os.path.join(root, "report.html")
        p = parse(path)
        follow(path, p)
        seoul_words(path, p)
        running = next((number(r[1]) for t in p.tables for r in t if r and r[0] == "이번 주 운영"), None)
        out["reports"][os.path.relpath(path, site)] = running
out["programs"] = len(os.listdir(os.path.join(site, "programs")))
out["broken"], out["words"] = broken, words
out["folders"] = sorted(os.listdir(site))
print(json.dumps(out, ensure_ascii=False))
