#!/usr/bin/env python3
"""Checks a national store's site (`raon site`) in headless Chromium (Selenium +
chromedriver), independently of Raon's code: the event followed, its key and its 시·도 come
from the downloads themselves (national_events.py).

  python3 national_site_browser.py SITE_DIR FIRST.csv SECOND.csv

FIRST is taken in 2023 (강원 is 강원도 then), SECOND in 2025 (강원특별자치도). Checks: index →
강원특별자치도's page → its 2023 week, the pack named 강원도 → back to the 시·도 page; the 2025
pack lists an event of 강원 that is in both downloads, and its page is titled as the data
says; search finds it by a Korean part of its title, the 시·도 filter keeps it and another
drops it; at 390 px (`raon_testkit.browser.phone_problems`) the viewport is 390 px, no page
scrolls sideways, headings do not skip, chart text is 11 px or more, no console errors.
Prints one line per failed check and "ok" or "N failed".
"""
import os, re, sys, urllib.parse
sys.path.insert(0, os.path.dirname(__file__))
import national_events as ne
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Scripts"))
from raon_testkit import browser  # noqa: E402
from raon_testkit.checks import Checks  # noqa: E402
from selenium.webdriver.common.by import By

site, first, second = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
checks = Checks()
check = checks.check

def gangwon_events(path):
    out = {}
    for row in ne.read(path):
        pid = ne.provider(row.get("제공기관명", ""), row.get("제공기관코드", ""))
        if ne.province_of_id(pid) == "강원":
            out.setdefault(ne.key(row), row.get("행사명", "").strip())
    return out

old, new = gangwon_events(first), gangwon_events(second)
both = sorted(k for k in new if k in old and browser.search_needle(new[k], 3))
key = both[0]
title = new[key]
program_file = key.replace(":", "-") + ".html"

def url(rel):
    return browser.file_url(os.path.join(site, rel))
q = urllib.parse.quote
with browser.chrome() as driver:
    driver.get(url("index.html"))
    check(driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ko", "index: lang is not ko")
    driver.find_element(By.CSS_SELECTOR, "main a[href='regions/%s.html']" % q("강원특별자치도")).click()
    region_page = driver.current_url
    check(driver.find_element(By.TAG_NAME, "h1").text == "강원특별자치도", "시·도 page h1 %r" % driver.find_element(By.TAG_NAME, "h1").text)
    driver.find_element(By.CSS_SELECTOR, "main a[href$='2023-W18/regions/%s/report.html']" % q("강원도")).click()
    check(driver.current_url.endswith("/weeks/2023-W18/regions/%s/report.html" % q("강원도")), "2023 pack: at %s" % driver.current_url)
    check("강원도" in driver.find_element(By.TAG_NAME, "h1").text, "2023 pack h1 %r" % driver.find_element(By.TAG_NAME, "h1").text)
    driver.find_element(By.CSS_SELECTOR, "nav.site a[href$='regions/%s.html']" % q("강원특별자치도")).click()
    check(driver.current_url == region_page, "the 2023 pack's 시·도 link: at %s" % driver.current_url)

    driver.get(url("weeks/2025-W14/regions/강원특별자치도/report.html"))
    links = driver.find_elements(By.CSS_SELECTOR, "nav.site a[href$='programs/%s']" % program_file)
    check(len(links) == 1, "the 2025 pack lists %s %d times" % (program_file, len(links)))
    if links:
        driver.get(links[0].get_attribute("href"))
        h1 = driver.find_element(By.TAG_NAME, "h1").text
        check(h1 == title, "event page h1 %r, data's title %r" % (h1, title))
        dl = driver.find_element(By.CSS_SELECTOR, "dl.fields").text
        check("시·도" in dl and "강원특별자치도" in dl and "자치구" not in dl, "event page fields: %r" % dl[:200])

    needle = browser.search_needle(title)
    before = browser.search_for(driver, url("search.html"), needle)
    check(any(h.endswith(program_file) for h in before), "search %r: event not among %d" % (needle, len(before)))
    check(any(h.endswith(program_file) for h in browser.filter_by(driver, "강원특별자치도")),
          "the 시·도 filter dropped the event")
    check(not any(h.endswith(program_file) for h in browser.filter_by(driver, "세종특별자치시")),
          "another 시·도 still shows the event")

    browser.phone(driver)
    sample = ["index.html", "search.html", "trend.html", "regions/강원특별자치도.html", "programs/" + program_file,
              "weeks/2025-W14/report.html", "weeks/2025-W14/regions/강원특별자치도/report.html",
              "weeks/2023-W18/regions/강원도/report.html"]
    for rel in sample:
        driver.get(url(rel))
        checks.failures += browser.phone_problems(driver, rel)

checks.finish()
