"""Shows that the shared browser checks (`raon_testkit.browser`) can fail: each is run in
real headless Chromium on a small page written to fail it and on one written to pass, and
`search_needle` on titles whose Hangul is split by digits, spaces or brackets.

  python3 Tests/Scripts/raon_testkit/browser_selftest.py [CATALOG.csv]

With a catalog (the bundled sample), every title with two Korean syllables in a row gets a
needle that is part of the title. Prints one line per failed check and "ok" or "N failed".
"""
import csv
import io
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from raon_testkit import browser  # noqa: E402
from raon_testkit.checks import Checks  # noqa: E402

checks = Checks()
check = checks.check


def glued_needle(title):
    """The needle the site script used before: every non-Hangul character dropped first,
    so syllables on either side of a digit or space were glued into text the title lacks."""
    words = re.sub(r"[^가-힣]", "", title)
    return words[1:3] if len(words) >= 3 else words


# 1. The needle: a part of the title itself, never syllables glued over digits or spaces.
for title in ("제2회 월드판소리페스티벌", "제24회 한성백제문화제", "2024 서울 걷자 페스티벌", "연극 [퉁소소리]",
              "제 14회 광화문광장 어린이 그리기 대회"):
    needle = browser.search_needle(title)
    check(needle is not None and len(needle) == 2 and needle in title, "needle %r for %r" % (needle, title))
check(glued_needle("제2회 월드판소리페스티벌") not in "제2회 월드판소리페스티벌", "the old needle's fault is not shown")
check(browser.search_needle("가 나 다 2024") is None, "a title without two syllables in a row has a needle")
check(browser.search_needle("가나") == "가나", "a two-syllable run is not its own needle")
check(browser.search_needle("대구 달서구청 3") == "서구", "the needle is not from the middle of the longest run")
check(browser.search_needle("달서구", 3) == "달서구", "a run of exactly LENGTH is not its own needle")
if len(sys.argv) > 1:
    raw = open(sys.argv[1], "rb").read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp949", errors="replace")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    col = rows[0].index("공연/행사명")
    titles = [r[col].strip() for r in rows[1:] if len(r) > col]
    searchable = [t for t in titles if re.search(r"[가-힣]{2}", t)]
    bad = [t for t in searchable if (browser.search_needle(t) or "") not in t or not browser.search_needle(t)]
    check(len(searchable) > 1000 and not bad, "%d of %d titles get no needle in the title: %s" % (
        len(bad), len(searchable), bad[:3]))

# 2. The page checks, each on a page made to fail it and on a clean one.
PAGES = {
    "clean": '<h1>제목</h1><h2>절</h2><h3>항</h3>'
             '<figure class="chart"><svg viewBox="0 0 100 50" width="300"><text y="20" font-size="12">가</text></svg></figure>',
    "wide": '<h1>제목</h1><div style="width:600px">넓음</div>',
    "skip": '<h1>제목</h1><h3>건너뜀</h3>',
    "nohead": '<p>제목 없음</p>',
    "tiny": '<h1>제목</h1><figure class="chart"><svg viewBox="0 0 1000 100" width="300">'
            '<text y="50" font-size="12">작은 글</text></svg></figure>',
    "console": '<h1>제목</h1><script>console.error("boom")</script>',
}
HEAD = '<!doctype html><html lang="ko"><head><meta charset="utf-8">%s</head><body>%s</body></html>'
VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'
with tempfile.TemporaryDirectory() as d:
    for name, body in PAGES.items():
        with open(os.path.join(d, name + ".html"), "w", encoding="utf-8") as f:
            f.write(HEAD % (VIEWPORT, body))
    with open(os.path.join(d, "desktop.html"), "w", encoding="utf-8") as f:
        f.write(HEAD % ("", PAGES["clean"]))  # no viewport tag: a phone lays it out 980 px wide

    with browser.chrome() as driver:
        browser.phone(driver)
        found = {}
        for name in list(PAGES) + ["desktop"]:
            driver.get(browser.file_url(os.path.join(d, name + ".html")))
            found[name] = browser.phone_problems(driver, name)
        check(found["clean"] == [], "a clean page fails: %s" % found["clean"])
        expect = {"wide": "scrolls sideways", "skip": "headings skip", "nohead": "headings skip",
                  "tiny": "has text at", "console": "console errors", "desktop": "viewport"}
        for name, words in expect.items():
            check(len(found[name]) >= 1 and any(words in p for p in found[name]),
                  "%s: expected %r, found %s" % (name, words, found[name]))
        pid = driver.service.process.pid

    # The context manager quits the browser even when the checks raise.
    try:
        with browser.chrome() as driver:
            raised_pid = driver.service.process.pid
            raise RuntimeError("a check crashed")
    except RuntimeError:
        pass
    for p in (pid, raised_pid):
        check(not os.path.exists("/proc/%d" % p) or open("/proc/%d/stat" % p).read().split()[2] == "Z",
              "chromedriver %d still runs after the with-block" % p)

checks.finish()
