#!/usr/bin/env python3
"""Opens a report.html in headless Chromium (Selenium + chromedriver) at a phone's width,
390 CSS px, and checks what a reader of a phone sees, independently of Raon's code:

- the page never scrolls sideways;
- every column of the trend's table (the section whose heading names 추이 or Trend) can
  be seen: the table fits its box, or the box scrolls and each header cell comes fully
  into the box when scrolled to;
- every text of every chart renders at 11 px or more (its font size times the scale the
  page draws the chart at).

  python3 report_phone.py REPORT.html

Prints one line per failed check and exits 1 when any failed; prints "ok" otherwise.
"""
import json, os, sys, urllib.parse
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

page = os.path.abspath(sys.argv[1])
options = webdriver.ChromeOptions()
for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
    options.add_argument(arg)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
failures = []
try:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    driver.get("file://" + urllib.parse.quote(page))
    found = json.loads(driver.execute_script("""
      const out = {scrollWidth: document.documentElement.scrollWidth,
                   clientWidth: document.documentElement.clientWidth, innerWidth: window.innerWidth};
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
      out.charts = Array.from(document.querySelectorAll('figure.chart svg')).map(svg => {
        const vb = svg.viewBox.baseVal;
        const scale = svg.getBoundingClientRect().width / (vb && vb.width ? vb.width : svg.getBoundingClientRect().width);
        const sizes = Array.from(svg.querySelectorAll('text')).filter(t => t.textContent.trim())
          .map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
        return {label: svg.getAttribute('aria-label'), smallest: sizes.length ? Math.min(...sizes) : null};
      });
      return JSON.stringify(out);
    """))
    if found["innerWidth"] != 390:
        failures.append("viewport is %s px, not 390" % found["innerWidth"])
    if found["scrollWidth"] > found["clientWidth"]:
        failures.append("the page scrolls sideways: %s > %s" % (found["scrollWidth"], found["clientWidth"]))
    if len(found["columns"]) < 5:
        failures.append("no trend table with its columns found: %s" % found["columns"])
    for c in found["columns"]:
        if c["display"] == "none" or c["visibility"] != "visible" or c["width"] < 8 or not c["inside"]:
            failures.append("trend column %r cannot be seen: %s" % (c["text"], c))
    if not found["charts"]:
        failures.append("no chart on the page")
    for chart in found["charts"]:
        if chart["smallest"] is not None and chart["smallest"] < 10.95:
            failures.append("chart %r has text at %.1f px" % (chart["label"], chart["smallest"]))
finally:
    driver.quit()
for f in failures:
    print(f)
print("ok" if not failures else "%d failed" % len(failures))
sys.exit(1 if failures else 0)
