#!/usr/bin/env python3
"""Checks a site written by `raon site` in headless Chromium (Selenium + chromedriver),
independently of Raon's code: what a program is called and where it is comes from the
catalog CSV itself.

  python3 site_browser.py SITE_DIR LATEST.csv PROGRAM_ID [EARLIER.csv EXPECTED.json]

Prints one line per failed check and exits 1 when any failed; prints "ok" otherwise.
Checks: index → the latest week → a district's week page → the program's page, and back;
two Korean syllables from its title's longest run of Hangul (never glued across a digit
or space: `raon_testkit.browser.search_needle`) find it on search.html, the district filter
narrows the results (and another district drops it); search.html?q=… shows it on load;
every internal link of every page resolves, every other link is http(s), nothing is loaded
from outside; no console errors; at 390 px (`raon_testkit.browser.phone_problems`) no page
scrolls sideways, headings do not skip, chart text is 11 px or more.
With EARLIER.csv (issue 34): the district's page lists exactly its programs current in the
latest week (end day missing or on/after that week's Monday, from the catalog itself), each
with its state on the snapshot day; search lists running and upcoming programs before
the rest, and the rest by their last day (end day, or the last week listed if sooner),
newest first; a removed program's page heads its data "마지막 정보", a listed one's "현재 정보".
"""
import csv, html.parser, io, os, re, sys, urllib.parse
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Scripts"))
from raon_testkit import browser  # noqa: E402
from raon_testkit.checks import Checks  # noqa: E402
from selenium.webdriver.common.by import By

site, catalog, program_id = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
checks = Checks()
check = checks.check

def read_csv(path):
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp949", errors="replace")
    return list(csv.reader(io.StringIO(text, newline="")))

rows = read_csv(catalog)
header = rows[0]
url_col = next(i for i, h in enumerate(header) if "URL" in h and "문화포털" in h)
row = next(r for r in rows[1:] if re.search(r"cultcode=%s\b" % program_id.split(":")[1], r[url_col]))
title, district = row[header.index("공연/행사명")].strip(), row[header.index("자치구")].strip()
program_file = program_id.replace(":", "-") + ".html"

# 0. The programs that left between the two weeks: 종료 when the earlier catalog's end day
# is before the later snapshot's day (2024-09-16), else 철회; the earlier title on a
# changed program's page beside the new one.
if len(sys.argv) > 5:
    import json
    earlier = read_csv(sys.argv[4])
    expected = json.load(open(sys.argv[5]))
    h = earlier[0]
    col = lambda name: h.index(name)
    by_id = {}
    for r in earlier[1:]:
        m = re.search(r"cultcode=(\d+)", r[url_col])
        if m:
            by_id["cult:" + m.group(1)] = r
    for rid in expected["removed"]:
        end = by_id[rid][col("종료일")].strip()[:10]
        word = "종료" if end and end < "2024-09-16" else "철회"
        page = open(os.path.join(site, "programs", rid.replace(":", "-") + ".html"), encoding="utf-8").read()
        check(("사라짐: " + word) in page, "%s left as %s, its page does not say so" % (rid, word))
    for cid in expected["changed"]:
        page = open(os.path.join(site, "programs", cid.replace(":", "-") + ".html"), encoding="utf-8").read()
        old_title = by_id[cid][col("공연/행사명")].strip()
        check(old_title in html.unescape(page) and "(변경)" in page,
              "%s: the title's change is not shown" % cid)

# 0b. Issue 34, from the catalogs: what the district page and the search must show.
LATEST_DAY = "2024-09-16"  # the later snapshot's day, a Monday: its ISO week starts that day
def code_of(r, header):
    m = re.search(r"cultcode=(\d+)", r[header.index("문화포털상세URL")])
    return "cult:" + m.group(1) if m else None
latest_rows = read_csv(catalog)
lh = latest_rows[0]
latest = {}
for r in latest_rows[1:]:
    c = code_of(r, lh)
    if c:
        latest[c] = r
def expected_state(r, h):
    start, end = r[h.index("시작일")].strip()[:10], r[h.index("종료일")].strip()[:10]
    if start and start > LATEST_DAY:
        return "예정"
    if end and end < LATEST_DAY:
        return "종료"
    return "운영 중"
def current_in(r, h):
    return r[h.index("자치구")].strip() == district and (
        not r[h.index("종료일")].strip() or r[h.index("종료일")].strip()[:10] >= LATEST_DAY)
district_expected = {c: expected_state(r, lh) for c, r in latest.items() if current_in(r, lh)}
# Rows without a cultcode have a hashed id: counted, not matched.
district_uncoded = len({(r[lh.index("공연/행사명")], r[lh.index("장소")], r[lh.index("시작일")])
                        for r in latest_rows[1:] if not code_of(r, lh) and current_in(r, lh)})
if len(sys.argv) > 5:
    for rid in expected["removed"]:
        page = open(os.path.join(site, "programs", rid.replace(":", "-") + ".html"), encoding="utf-8").read()
        check("<h2>마지막 정보</h2>" in page and "현재 정보" not in page, "%s left; its page does not say 마지막 정보" % rid)
    page = open(os.path.join(site, "programs", program_file), encoding="utf-8").read()
    check("<h2>현재 정보</h2>" in page, "%s is listed; its page does not say 현재 정보" % program_id)

# 1. Every page: links resolve inside the site, others are http(s); nothing loads.
class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs, self.loads = [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
        if tag in ("script", "img", "iframe", "audio", "video", "source", "embed") and a.get("src"):
            self.loads.append(a["src"])
        if tag == "link" and a.get("href") and a.get("href") != "data:,":
            self.loads.append(a["href"])
pages = []
for root, _, files in os.walk(site):
    pages += [os.path.join(root, f) for f in files if f.endswith(".html")]
check(len(pages) > 30, "only %d pages" % len(pages))
reached, queue = set(), [os.path.join(site, "index.html")]
while queue:
    page = queue.pop()
    if page in reached:
        continue
    reached.add(page)
    parser = Links()
    parser.feed(open(page, encoding="utf-8").read())
    check(not parser.loads, "%s loads %s" % (page, parser.loads[:3]))
    for href in parser.hrefs:
        if href.startswith("#"):
            continue
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", href):
            check(href.startswith(("http://", "https://")), "%s links to %s" % (page, href))
            continue
        check(not href.startswith("/"), "%s has a root link %s" % (page, href))
        path = urllib.parse.unquote(href.split("#")[0].split("?")[0])
        target = os.path.normpath(os.path.join(os.path.dirname(page), path))
        if not os.path.exists(target):
            checks.failures.append("%s: broken link %s" % (page, href))
        elif target.endswith(".html") and target.startswith(site):
            queue.append(target)
check(os.path.join(site, "programs", program_file) in reached, "the program's page is not reachable from the index")

# 2. The browser.
def url(rel):
    return browser.file_url(os.path.join(site, rel))
with browser.chrome() as driver:
    def errors():
        return browser.console_errors(driver)
    driver.get(url("index.html"))
    check(driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ko", "index: lang is not ko")
    start = driver.current_url
    weeks = driver.find_elements(By.CSS_SELECTOR, "main ul a[href^='weeks/']")
    check(len(weeks) >= 2, "index lists %d weeks" % len(weeks))
    weeks[0].click()
    check(re.search(r"/weeks/\d{4}-W\d\d/report.html$", driver.current_url), "week: at %s" % driver.current_url)
    check(len(driver.find_elements(By.TAG_NAME, "h1")) == 1, "week page: not one h1")
    link = driver.find_element(By.CSS_SELECTOR, "nav.site a[href$='/%s/report.html']" % urllib.parse.quote(district))
    driver.get(link.get_attribute("href"))
    check(driver.current_url.endswith(urllib.parse.quote(district) + "/report.html"), "district: at %s" % driver.current_url)
    link = driver.find_element(By.CSS_SELECTOR, "nav.site a[href$='%s']" % program_file)
    driver.get(link.get_attribute("href"))
    h1 = driver.find_element(By.TAG_NAME, "h1").text
    check(h1 == title, "program page h1 %r, catalog title %r" % (h1, title))
    for _ in range(3):
        driver.back()
    check(driver.current_url == start, "back three times: at %s" % driver.current_url)

    # Search: a Korean substring from the middle of the title.
    needle = browser.search_needle(title)
    check(needle and needle in title, "title %r has no run of two Korean syllables to search by" % title)
    needle = needle or title
    before = browser.search_for(driver, url("search.html"), needle)
    count_before = driver.find_element(By.ID, "count").text
    check(any(h.endswith(program_file) for h in before), "search %r: program not among %d" % (needle, len(before)))
    after = browser.filter_by(driver, district)
    check(any(h.endswith(program_file) for h in after), "district filter dropped the program")
    check(len(after) <= len(before), "district filter did not narrow")
    other = next(d for d in ("종로구", "중구", "강남구") if d != district)
    check(not any(h.endswith(program_file) for h in browser.filter_by(driver, other)),
          "another district still shows the program")
    check(driver.find_element(By.ID, "count").text != count_before, "the count did not change")
    driver.get(url("search.html") + "?q=" + urllib.parse.quote(needle))
    check(any(h.endswith(program_file) for h in browser.search_hits(driver)), "search.html?q=: no results on load")
    check(driver.find_element(By.ID, "q").get_attribute("value") == needle, "q not prefilled")
    check(not errors(), "console errors: %s" % errors())

    # Issue 34: the district's page, read as the browser shows it.
    driver.get(url("districts/%s.html" % district))
    shown, uncoded = {}, 0
    for tr in driver.find_elements(By.CSS_SELECTOR, "table.programs tbody tr"):
        cells = tr.find_elements(By.TAG_NAME, "td")
        check(len(cells) == 4 and cells[3].text.strip(), "district page row %r" % tr.text)
        href = cells[0].find_element(By.TAG_NAME, "a").get_attribute("href")
        m = re.search(r"programs/cult-(\d+)\.html$", href)
        if m:
            shown["cult:" + m.group(1)] = cells[1].text.strip()
        else:
            uncoded += 1
    check(uncoded == district_uncoded, "district page: %d programs without a cultcode, catalog %d" % (uncoded, district_uncoded))
    check(set(shown) == set(district_expected),
          "district page lists %d programs, the catalog %d current (%d extra, %d missing)" % (
              len(shown), len(district_expected), len(set(shown) - set(district_expected)),
              len(set(district_expected) - set(shown))))
    wrong = [c for c in shown if c in district_expected and shown[c] != district_expected[c]]
    check(not wrong, "district page states differ for %s" % wrong[:3])
    heading = driver.find_element(By.CSS_SELECTOR, "main h2").text
    check(("(%d건)" % (len(district_expected) + district_uncoded)) in heading.replace(",", ""),
          "district heading %r" % heading)

    # Issue 34: search ranks current programs first, then the rest by their last day.
    if len(sys.argv) > 5:
        earlier_codes = set(by_id)
        driver.get(url("search.html") + "?d=" + urllib.parse.quote(district))
        browser.wait_for_hits(driver)
        order = []
        for li in driver.find_elements(By.CSS_SELECTOR, "#results li"):
            href = li.find_element(By.TAG_NAME, "a").get_attribute("href")
            m = re.search(r"programs/cult-(\d+)\.html$", href)
            state = li.find_element(By.CSS_SELECTOR, "span.muted").text.split(" · ")[-1]
            if m:
                order.append(("cult:" + m.group(1), state))
        check(len(order) >= 20, "search by district lists %d" % len(order))
        current = [i for i, (_, st) in enumerate(order) if st in ("운영 중", "예정")]
        rest = [i for i, (_, st) in enumerate(order) if st not in ("운영 중", "예정")]
        check(not current or not rest or max(current) < min(rest),
              "search lists a past program before a current one: %s" % [order[i] for i in rest[:1]])
        def last_day(c):
            seen = LATEST_DAY if c in latest else "2024-09-09"
            row, h = (latest[c], lh) if c in latest else (by_id[c], earlier[0])
            end = row[h.index("종료일")].strip()[:10]
            return min(end, seen) if end else seen
        days = [last_day(c) for c, st in order if st not in ("운영 중", "예정") and (c in latest or c in earlier_codes)]
        check(all(a >= b for a, b in zip(days, days[1:])), "past programs not newest first: %s" % days[:8])

    # No console error, no sideways scroll at 390 px, on every kind of page.
    browser.phone(driver)
    sample = ["index.html", "search.html", "trend.html", "districts/%s.html" % district,
              "programs/" + program_file]
    sample += [os.path.relpath(p, site) for p in pages if p.endswith("report.html")][:6]
    for rel in sample:
        driver.get(url(rel) + ("?q=" + urllib.parse.quote(needle) if rel == "search.html" else ""))
        checks.failures += browser.phone_problems(driver, rel)

checks.finish()
