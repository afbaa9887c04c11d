"""Python support shared by Raon's Swift tests (their scripts) and the hostile runner
(`scripts/hostile/run_hostile.py`): one XLSX checker (`xlsx`), one loopback Open API
server (`loopback_api`), one stand-in Chromium (`fake_chromium`), one real headless
Chromium for the browser checks with the checks every page passes on a phone (`browser`,
proven able to fail by `browser_selftest.py`), one way to report checks (`checks`).
Loopback only.

Import it by putting `Tests/Scripts` on `sys.path`.
"""
