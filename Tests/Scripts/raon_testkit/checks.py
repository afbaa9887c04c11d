"""The way the tests' check scripts report: one line per failed check, then "ok" or
"N failed", and exit status 1 when any failed (the Swift tests assert on both).

  checks = Checks()
  checks.check(page_ok, "index: lang is not ko")
  checks.failures += browser.phone_problems(driver, "index.html")
  checks.finish()
"""
import sys


class Checks:
    def __init__(self):
        self.failures = []

    def check(self, ok, what):
        """Records `what` when `ok` is false."""
        if not ok:
            self.failures.append(what)

    def finish(self):
        """Prints the failures and the verdict, and exits with 1 when any failed."""
        for f in self.failures:
            print(f)
        print("ok" if not self.failures else "%d failed" % len(self.failures))
        sys.exit(1 if self.failures else 0)
