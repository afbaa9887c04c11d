#!/usr/bin/env python3
"""Writes a modified copy of a catalog CSV — a plausible "next week" — and the ids it
changed, for tests, notebooks and benchmarks.

  python3 scripts/make_modified_sample.py IN.csv OUT.csv [--expected OUT.json] [--seed N]

The copy is UTF-8 with BOM (as a re-saved download would be). Changes, chosen with a
seeded random generator: 5 programs removed (always including any row whose bytes were
invalid, since re-encoding repairs it and would change its quality flags), 3 added
(copies of existing rows with new cultcodes 990001…), 4 changed (paid programs whose
fee text has no digits, e.g. "전석 초대", get a title suffix and the fee text "전석 12,345원" etc., so title, fee_text,
fee_min_krw and fee_max_krw change). --expected writes
{"added": [...], "removed": [...], "changed": {"cult:N": ["title", "fee_text", ...]}}:
computed here, independently of Raon's own code.
"""
import argparse, csv, io, json, random, re

ap = argparse.ArgumentParser()
ap.add_argument("input")
ap.add_argument("output")
ap.add_argument("--expected")
ap.add_argument("--seed", type=int, default=7)
a = ap.parse_args()

raw = open(a.input, "rb").read()
try:
    text = raw.decode("utf-8-sig")
except UnicodeDecodeError:
    text = raw.decode("cp949", errors="replace")
rows = list(csv.reader(io.StringIO(text, newline="")))
header, body = rows[0], rows[1:]
url_col = next(i for i, h in enumerate(header) if "URL" in h and "문화포털" in h)
title_col = header.index("공연/행사명")
fee_col = header.index("이용요금")
free_col = header.index("유무료")

def cid(row):
    m = re.search(r"cultcode=(\d+)", row[url_col])
    return "cult:" + m.group(1)

rng = random.Random(a.seed)
idx = list(range(len(body)))
rng.shuffle(idx)
repaired = [i for i in idx if any("\ufffd" in c for c in body[i])]
others = [i for i in idx if i not in repaired]
candidates = [i for i in others
              if body[i][free_col].strip() == "유료" and not re.search(r"\d", body[i][fee_col])]
changed_idx = candidates[:4]
rest = [i for i in others if i not in changed_idx]
removed_idx = (repaired + rest)[:5]
template_idx = [i for i in rest if i not in removed_idx][:3]

expected = {"added": [], "removed": sorted(cid(body[i]) for i in removed_idx), "changed": {}}
for n, i in enumerate(changed_idx):
    row = body[i]
    old_fee = row[fee_col]
    row[title_col] = row[title_col] + " (변경)"
    row[fee_col] = "전석 {:,}원".format(12345 + 1111 * n)
    # The old fee text had no amounts; the new one has one, so min and max appear. A paid
    # program whose old text had words but no amount and no 무료 was flagged
    # fee_without_amount; with an amount it is not, so its quality flags change too.
    fields = ["title", "fee_text", "fee_min_krw", "fee_max_krw"]
    if any(ch.isalpha() for ch in old_fee) and "무료" not in old_fee and "free" not in old_fee.lower():
        fields.append("quality_flags")
    expected["changed"][cid(row)] = fields

added_rows = []
for n, i in enumerate(template_idx):
    row = list(body[i])
    code = 990001 + n
    row[url_col] = re.sub(r"cultcode=\d+", "cultcode=%d" % code, row[url_col])
    row[title_col] = "새 프로그램 %d" % (n + 1)
    added_rows.append(row)
    expected["added"].append("cult:%d" % code)
expected["added"].sort()

out_rows = [r for k, r in enumerate(body) if k not in set(removed_idx)] + added_rows
with open(a.output, "w", encoding="utf-8-sig", newline="") as f:
    w = csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    w.writerow(header)
    w.writerows(out_rows)
if a.expected:
    with open(a.expected, "w") as f:
        json.dump(expected, f, ensure_ascii=False, indent=1, sort_keys=True)
