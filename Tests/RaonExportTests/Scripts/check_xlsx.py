#!/usr/bin/env python3
"""Reads an .xlsx with an independent reader (openpyxl + the zip's XML) and prints JSON
describing what it found, for Raon's Swift tests (XLSX*Tests.swift) to assert on.
The reading is `raon_testkit.xlsx.describe`, shared with the hostile runner.

usage: check_xlsx.py FILE [MAX_ROWS]
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Scripts"))
from raon_testkit.xlsx import describe  # noqa: E402

if __name__ == "__main__":
    json.dump(describe(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 60), sys.stdout, ensure_ascii=False)
