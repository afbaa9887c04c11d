#!/usr/bin/env python3
"""Opens a report.html in headless Chromium (Selenium + chromedriver) at a phone's width,
390 CSS px, and checks what a reader of a phone sees, independently of Raon's code:

- the page never scrolls sideways;
- every column of the trend's table (the section whose heading names 추이 or Trend) can
  be seen: the table fits its box, or the box scrolls and each header cell comes fully
  into the box when scrolled to;
- every text of every chart renders at 11 px or more (its font size times the scale the
  page draws the chart at);
- headings start at h1 and never skip a level; the browser logs no console error.

The phone's viewport and the checks shared with the site scripts are
`raon_testkit.browser` (Tests/Scripts).

  python3 report_phone.py REPORT.html

Prints one line per failed check and exits 1 when any failed; prints "ok" otherwise.
"""
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Scripts"))
from raon_testkit import browser  # noqa: E402
from raon_testkit.checks import Checks  # noqa: E402

page = os.path.abspath(sys.argv[1])
checks = Checks()
failures = checks.failures
with browser.chrome() as driver:
    browser.phone(driver)
    driver.get(browser.file_url(page))
    name = os.path.basename(page)
    # The checks every page passes on a phone: no sideways scroll, chart text, headings, console.
    failures += browser.phone_problems(driver, name)
    found = json.loads(driver.execute_script("""
      const out = {};
      const trend = Array.from(document.querySelectorAll('section, h2')).find(
        el => el.tagName === 'SECTION' && /추이|Trend/.test((el.querySelector('h2') || {}).textContent || ''));
      out.columns = [];
      if (trend && trend.querySelector('table')) {
        const table = trend.querySelector('table');
        const box = table.closest('.table-wrap') || table.parentElement;
        for (const th of table.querySelectorAll('thead th')) {
          const style = getComputedStyle(th);
          box.scrollLeft = 0;
          let r = th.getBoundingClientRect(), b = box.getBoundingClientRect();
          if (r.right > b.right + 1) {  // scroll the box until the cell's right edge shows
            box.scrollLeft += r.right - b.right;
            r = th.getBoundingClientRect(); b = box.getBoundingClientRect();
          }
          out.columns.push({text: th.textContent, display: style.display, visibility: style.visibility,
                            width: r.width, inside: r.left >= b.left - 1 && r.right <= b.right + 1});
        }
        box.scrollLeft = 0;
      }
      out.charts = document.querySelectorAll('figure.chart svg').length;
      return JSON.stringify(out);
    """))
    if len(found["columns"]) < 5:
        failures.append("no trend table with its columns found: %s" % found["columns"])
    for c in found["columns"]:
        if c["display"] == "none" or c["visibility"] != "visible" or c["width"] < 8 or not c["inside"]:
            failures.append("trend column %r cannot be seen: %s" % (c["text"], c))
    if not found["charts"]:
        failures.append("no chart on the page")
checks.finish()
