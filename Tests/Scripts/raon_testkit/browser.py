"""Headless Chromium for the tests' browser checks (Selenium + chromedriver), in one place:
the driver's flags and path, a context manager that always quits it, and the checks every
page must pass on a phone (390 CSS px wide), so the site and report scripts
(`Tests/RaonCLITests/Scripts/site_browser.py`, `national_site_browser.py`,
`report_phone.py`) ask the same questions the same way.

  with browser.chrome() as driver:
      browser.phone(driver)
      driver.get(browser.file_url(path))
      failures += browser.phone_problems(driver, "index.html")

Each check returns a list of one-line failures (empty when the page passes). Loopback only:
pages are opened from disk; nothing here reaches the network.
"""
import contextlib
import os
import re
import shutil
import urllib.parse

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

# A phone's viewport, as the checks read it: 390 CSS px, one device pixel per CSS pixel.
PHONE_WIDTH = 390
PHONE = {"width": PHONE_WIDTH, "height": 844, "deviceScaleFactor": 1, "mobile": True}
# Chart text must render at 11 px or more on a phone (a little under, for rounding).
SMALLEST_TEXT_PX = 10.95


def chromedriver_path():
    """`RAON_CHROMEDRIVER`, else `chromedriver` on PATH, else Debian's /usr/bin/chromedriver."""
    return os.environ.get("RAON_CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"


def new_driver(console=True):
    """A headless Chromium at a desktop size (1280×900); `console` keeps the browser's
    log so `console_errors` can read it."""
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(arg)
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(chromedriver_path()), options=options)


@contextlib.contextmanager
def chrome(console=True):
    """`new_driver`, quit on the way out whatever happened (no Chromium left behind)."""
    driver = new_driver(console)
    try:
        yield driver
    finally:
        driver.quit()


def file_url(path):
    """The file:// address of a local file (quoted: Korean names, spaces)."""
    return "file://" + urllib.parse.quote(os.path.abspath(path))


def console_errors(driver):
    """The SEVERE messages the browser logged since the last call (the log is drained)."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def phone(driver):
    """Emulates the phone's viewport for every page loaded from now on."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)


def widths(driver):
    """[the page's scroll width, its client width, the window's inner width] in CSS px."""
    return driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth, window.innerWidth]")


def width_problems(driver, name):
    """The viewport is the phone's and the page does not scroll sideways."""
    w = widths(driver)
    out = []
    if w[2] != PHONE_WIDTH:
        out.append("%s: viewport %s, not %d px" % (name, w, PHONE_WIDTH))
    if w[0] > w[1]:
        out.append("%s scrolls sideways at %d px: %s" % (name, PHONE_WIDTH, w))
    return out


def heading_problems(driver, name):
    """The page has headings, starts at h1 and never skips a level going down."""
    levels = driver.execute_script(
        "return Array.from(document.querySelectorAll('h1,h2,h3,h4,h5,h6')).map(h => +h.tagName[1])")
    if levels and levels[0] == 1 and all(b - a <= 1 for a, b in zip(levels, levels[1:])):
        return []
    return ["%s: headings skip %s" % (name, levels)]


def chart_text_problems(driver, name, smallest=SMALLEST_TEXT_PX):
    """Every non-empty text of every chart (`figure.chart svg`) renders at `smallest` px or
    more: its font size times the scale the page draws the chart at."""
    charts = driver.execute_script("""
      return Array.from(document.querySelectorAll('figure.chart svg')).map(svg => {
        const vb = svg.viewBox.baseVal, box = svg.getBoundingClientRect();
        const scale = box.width / (vb && vb.width ? vb.width : box.width);
        const sizes = Array.from(svg.querySelectorAll('text')).filter(t => t.textContent.trim())
          .map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
        return [svg.getAttribute('aria-label'), sizes.length ? Math.min(...sizes) : null];
      });""")
    return ["%s: chart %r has text at %.1f px" % (name, label, px)
            for label, px in charts if px is not None and px < smallest]


def phone_problems(driver, name, console=True):
    """Everything a page must pass at the phone's width: `width_problems`,
    `heading_problems`, `chart_text_problems` and (with `console`) no console error."""
    out = width_problems(driver, name) + heading_problems(driver, name) + chart_text_problems(driver, name)
    if console:
        errors = console_errors(driver)
        if errors:
            out.append("%s: console errors %s" % (name, errors))
    return out


def search_needle(title, length=2):
    """A short Korean part of a title to type into a search box: `length` syllables from
    the middle of the title's longest run of Hangul, so the needle is a substring of the
    title itself (digits, spaces and brackets never glued over). None when no run is long
    enough."""
    run = max(re.findall(r"[가-힣]+", title) or [""], key=len)
    if len(run) < length:
        return None
    start = 1 if len(run) > length else 0
    return run[start:start + length]


def search_hits(driver):
    """The addresses of the results the site's search page (search.html) shows now."""
    return [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#results a")]


def wait_for_hits(driver, seconds=5):
    """The results once there are any; [] when none came within `seconds` (a failed check
    to report, not a crash)."""
    try:
        WebDriverWait(driver, seconds).until(lambda d: search_hits(d))
    except TimeoutException:
        return []
    return search_hits(driver)


def search_for(driver, address, needle):
    """Opens the search page at `address`, types `needle` into its box and returns the
    results (`wait_for_hits`)."""
    driver.get(address)
    driver.find_element(By.ID, "q").send_keys(needle)
    return wait_for_hits(driver)


def filter_by(driver, value):
    """Picks `value` in the search page's district (시·도) filter; returns the results."""
    Select(driver.find_element(By.ID, "d")).select_by_value(value)
    return search_hits(driver)
