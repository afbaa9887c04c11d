#!/usr/bin/env python3
"""A history of weekly snapshots built from the bundled sample, and the week's figures
computed independently of Raon (plain Python over the CSV rows).

    weekly_history.py make SAMPLE.csv OUTDIR   -> OUTDIR/w1.csv … w4.csv, OUTDIR/plan.json
    weekly_history.py check SAMPLE.csv OUTDIR REPORTDIR -> prints mismatches as JSON ([] when equal)

Week k (W34 … W37 of 2024, snapshots taken Mondays 09:00 KST) holds the sample's programs
registered (신청일) by that Monday, minus programs withdrawn or taken down along the way,
with a few edits: material ones (a fee, a title) and minor ones (coordinates moved about
10 m, a new image URL). Edits and removals persist into the later weeks.

The definitions are DESIGN.md's ("The week"), written again here from the text, not from
Raon's code.
"""
import csv
import datetime as dt
import io
import json
import math
import re
import sys

DAYS = [dt.date(2024, 8, 19), dt.date(2024, 8, 26), dt.date(2024, 9, 2), dt.date(2024, 9, 9)]


def read_sample(path):
    with open(path, "rb") as f:
        text = f.read().decode("cp949", errors="replace")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    return rows[0], rows[1:]


def day(text):
    m = re.match(r"(\d{4})-(\d{2})-(\d{2})", text or "")
    return dt.date(int(m[1]), int(m[2]), int(m[3])) if m else None


def monday(d):
    return d - dt.timedelta(days=d.weekday())


def iso_week(d):
    y, w, _ = d.isocalendar()
    return f"{y:04d}-W{w:02d}"


class Row:
    def __init__(self, header, values):
        self.h = header
        self.v = list(values)

    def get(self, name):
        return self.v[self.h.index(name)]

    def set(self, name, value):
        self.v[self.h.index(name)] = value

    @property
    def id(self):
        return "cult:" + re.search(r"cultcode=(\d+)", self.get("문화포털상세URL"))[1]

    def dates(self):
        start, end = day(self.get("시작일")), day(self.get("종료일"))
        if start is None and end is None:  # the range text survives a re-save
            parts = self.get("날짜/시간").split("~")
            start, end = day(parts[0]), day(parts[-1])
        return start, end


def plan(header, rows):
    """Which programs each week holds and how they are edited, decided from the sample."""
    by_id = {Row(header, r).id: Row(header, r) for r in rows}
    ids = sorted(by_id)
    reg = {i: day(by_id[i].get("신청일")) for i in ids}
    ends = {i: by_id[i].dates()[1] for i in ids}
    d3, d4 = DAYS[2], DAYS[3]
    present3 = [i for i in ids if reg[i] and reg[i] <= d3]
    # Taken down before week 4: three that had ended by then, three still current.
    ended = [i for i in present3 if ends[i] and ends[i] < d4][:3]
    withdrawn = [i for i in present3 if ends[i] is None or ends[i] >= d4][5:8]
    # Taken down before week 3 (so week 3 already lacks them).
    early = [i for i in ids if reg[i] and reg[i] <= DAYS[1] and i not in ended + withdrawn][10:12]
    kept4 = [i for i in present3 if i not in ended + withdrawn + early]
    with_coords = [i for i in kept4 if coordinate_column(by_id[i]) is not None]
    return {
        "removed": {"2": [], "3": early, "4": ended + withdrawn},
        # week -> ids edited from that week on
        "materialFee": {"4": kept4[20:22]},
        "materialTitle": {"3": kept4[30:31]},
        "minorMove": {"4": with_coords[40:42]},
        "minorImage": {"4": kept4[50:51]},
    }


def coordinate_column(row):
    for name in row.h:
        if "좌표" in name:
            try:
                value = float(row.get(name))
            except ValueError:
                continue
            if 33 < value < 39:
                return name
    return None


def week_rows(header, rows, p, k):
    """The rows of week k (1-based), edits applied."""
    gone = set()
    for w in range(2, k + 1):
        gone.update(p["removed"][str(w)])
    out = []
    for values in rows:
        r = Row(header, values)
        reg = day(r.get("신청일"))
        if not reg or reg > DAYS[k - 1] or r.id in gone:
            continue
        for w in range(1, k + 1):
            if r.id in p["materialFee"].get(str(w), []):
                r.set("이용요금", "전석 12,345원")
            if r.id in p["materialTitle"].get(str(w), []):
                r.set("공연/행사명", r.get("공연/행사명") + " (변경)")
            if r.id in p["minorMove"].get(str(w), []):
                col = coordinate_column(r)
                r.set(col, repr(float(r.get(col)) + 0.00009))  # about 10 m north
            if r.id in p["minorImage"].get(str(w), []):
                r.set("대표이미지", r.get("대표이미지") + "&v=2")
        out.append(r)
    return out


def figures(rows, week_day, snapshot_day):
    mon = monday(week_day)
    sun = mon + dt.timedelta(days=6)
    out = {k: 0 for k in ["current", "running", "starting", "ending", "registered", "runningFree"]}
    ids = {"startingIds": [], "endingIds": [], "registeredIds": []}
    for r in rows:
        start, end = r.dates()
        reg = day(r.get("신청일"))
        if end is None or end >= mon:
            out["current"] += 1
        if start and end and start <= sun and end >= mon:
            out["running"] += 1
            if r.get("유무료") == "무료":
                out["runningFree"] += 1
        if start and mon <= start <= sun:
            out["starting"] += 1
            ids["startingIds"].append(r.id)
        if end and mon <= end <= sun:
            out["ending"] += 1
            ids["endingIds"].append(r.id)
        if reg and snapshot_day - dt.timedelta(days=6) <= reg <= snapshot_day:
            out["registered"] += 1
            ids["registeredIds"].append(r.id)
    for k in ids:
        out[k] = sorted(ids[k])
    return out


def make(sample, outdir):
    header, rows = read_sample(sample)
    p = plan(header, rows)
    for k in range(1, 5):
        with open(f"{outdir}/w{k}.csv", "w", encoding="utf-8-sig", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            for r in week_rows(header, rows, p, k):
                w.writerow(r.v)
    json.dump(p, open(f"{outdir}/plan.json", "w"), ensure_ascii=False)


def expected(sample, outdir):
    header, rows = read_sample(sample)
    p = json.load(open(f"{outdir}/plan.json"))
    weeks = [week_rows(header, rows, p, k) for k in range(1, 5)]
    last, prev = weeks[3], weeks[2]
    this_week = figures(last, DAYS[3], DAYS[3])
    previous = figures(prev, DAYS[2], DAYS[2])
    previous = {k: v for k, v in previous.items() if not k.endswith("Ids")}
    previous.update({"isoWeek": iso_week(DAYS[2]), "snapshotId": 3})
    old = {r.id: r for r in prev}
    new = {r.id: r for r in last}
    removed = sorted(set(old) - set(new))
    ended = sorted(i for i in removed if old[i].dates()[1] and old[i].dates()[1] < DAYS[3])
    changes = {
        "added": len(set(new) - set(old)),
        "removedEndedIds": ended,
        "removedWithdrawnIds": sorted(set(removed) - set(ended)),
        "changedMaterialIds": sorted(p["materialFee"]["4"]),
        "changedMinorIds": sorted(p["minorMove"]["4"] + p["minorImage"]["4"]),
    }
    trend = []
    for k, rows_k in enumerate(weeks):
        f = figures(rows_k, DAYS[k], DAYS[k])
        point = {"isoWeek": iso_week(DAYS[k]), "snapshotId": k + 1, "programCount": len(rows_k)}
        point.update({x: f[x] for x in ["current", "running", "starting", "registered"]})
        if k == 0:
            point.update({"added": None, "removed": None})
        else:
            a, b = {r.id for r in weeks[k - 1]}, {r.id for r in rows_k}
            point.update({"added": len(b - a), "removed": len(a - b)})
        trend.append(point)
    return this_week, previous, changes, trend


def check(sample, outdir, report):
    this_week, previous, changes, trend = expected(sample, outdir)
    got = json.load(open(f"{report}/report.json", encoding="utf-8"))
    bad = []

    def same(path, want, have):
        if want != have:
            bad.append({"at": path, "want": want, "got": have})

    for k, v in this_week.items():
        same(f"thisWeek.{k}", v, got["thisWeek"].get(k))
    for k, v in previous.items():
        same(f"previousWeek.{k}", v, (got.get("previousWeek") or {}).get(k))
    for k, v in changes.items():
        same(f"changes.{k}", v, (got.get("changes") or {}).get(k))
    points = got.get("trend") or []
    same("trend.length", len(trend), len(points))
    for i, (want, have) in enumerate(zip(trend, points)):
        for k, v in want.items():
            same(f"trend[{i}].{k}", v, have.get(k))

    # The same numbers in the Markdown headline and the workbook's summary.
    md = open(f"{report}/report.md", encoding="utf-8").read()
    rows = [("운영 중·예정", "current"), ("이번 주 운영", "running"), ("이번 주 시작", "starting"),
            ("이번 주 종료", "ending"), ("신규 등록", "registered")]
    for label, key in rows:
        a, b = this_week[key], previous[key]
        change = f"▲ {a - b:,}" if a > b else (f"▼ {b - a:,}" if a < b else "0")
        line = f"| {label} | {a:,} | {b:,} | {change} |"
        if line not in md:
            bad.append({"at": f"report.md {label}", "want": line})
    # Page 1's first sentence, from the same two figures.
    a, b = this_week["running"], previous["running"]
    if a != b:
        # A percentage only of a base of 10 or more.
        share = f"({abs(a - b) / b * 100:.1f}%)" if b >= 10 else ""
        sentence = (f"이번 주 운영 중인 문화행사는 {a:,}건으로 전주({b:,}건)보다 {abs(a - b):,}건"
                    f"{share} {'늘었습니다' if a > b else '줄었습니다'}.")
        if sentence not in md:
            bad.append({"at": "report.md first sentence", "want": sentence})
    # Attachment 1 lists every program running this week once, under its district.
    sample_header, sample_rows = read_sample(sample)
    last = week_rows(sample_header, sample_rows, json.load(open(f"{outdir}/plan.json")), 4)
    bad += running_list_problems(md, last, DAYS[3], "city report.md")
    bad += rest_note_problems(md, last, DAYS[3])
    import openpyxl
    ws = openpyxl.load_workbook(f"{report}/report.xlsx", read_only=True)["요약"]
    cells = {row[0]: row[1:4] for row in ws.iter_rows(values_only=True) if row and row[0]}
    for label, key in rows:
        have = cells.get(label)
        want = (this_week[key], previous[key], this_week[key] - previous[key])
        if not have or tuple(int(x) for x in have) != want:
            bad.append({"at": f"report.xlsx 요약 {label}", "want": list(want), "got": str(have)})
    starting = openpyxl.load_workbook(f"{report}/report.xlsx", read_only=True)["이번 주 시작"]
    listed = sorted(r[7] for r in list(starting.iter_rows(values_only=True))[1:] if r and r[7])
    same("report.xlsx 이번 주 시작 ids", this_week["startingIds"], listed)
    print(json.dumps(bad, ensure_ascii=False, default=str))


DISTRICTS = ["강남구", "강동구", "강북구", "강서구", "관악구", "광진구", "구로구", "금천구", "노원구",
             "도봉구", "동대문구", "동작구", "마포구", "서대문구", "서초구", "성동구", "성북구", "송파구",
             "양천구", "영등포구", "용산구", "은평구", "종로구", "중구", "중랑구"]


def rest_note(counts, keep=10, where="아래 표에"):
    """The note under a chart of the largest `keep` groups: 'N개 구' counts only the 25
    자치구 left out; 미상 is named on its own."""
    ranked = sorted(((k, n) for k, n in counts.items() if n > 0), key=lambda x: (-x[1], x[0]))
    if len(ranked) <= keep + 1:
        return None
    rest = ranked[keep:]
    districts = [(k, n) for k, n in rest if k != "미상"]
    unknown = sum(n for k, n in rest if k == "미상")
    parts = []
    if districts:
        parts.append(f"그 외 {len(districts)}개 구 {sum(n for _, n in districts):,}건")
    if unknown:
        parts.append(f"자치구 미상 {unknown:,}건")
    return ", ".join(parts) + f"은 {where} 있습니다."


def rest_note_problems(md, rows, week_day):
    """Page 1's chart of this week's districts and the whole catalog's chart by district
    name what they leave out with N equal to the districts it covers."""
    mon = monday(week_day)
    sun = mon + dt.timedelta(days=6)
    def district(r):
        d = r.get("자치구").strip()
        return d if d in DISTRICTS else "미상"
    running, catalog = {}, {}
    for r in rows:
        catalog[district(r)] = catalog.get(district(r), 0) + 1
        start, end = r.dates()
        if start and end and start <= sun and end >= mon:
            running[district(r)] = running.get(district(r), 0) + 1
    bad = []
    page1 = md.split("## 붙임 1.", 1)[0]
    whole = md.split("## 붙임 7.", 1)[-1].split("## 붙임 8.", 1)[0]
    # Page 1's chart points to attachment 5's table; the whole catalog's stands over its own.
    for where, text, counts, table in [
        ("page 1", page1, running, "붙임 5의 표에"), ("붙임 7", whole, catalog, "아래 표에"),
    ]:
        want = rest_note(counts, where=table)
        if want and want not in text:
            got = re.findall(r"그 외 \d+개 구[^\n]*", text)
            bad.append({"at": f"report.md {where} chart note", "want": want, "got": got})
    return bad


def running_list_problems(md, rows, week_day, where):
    """Every program running in week_day's week is listed once in attachment 1 of `md` (by
    its portal link), nothing else is, and a free one with no fee text shows 무료."""
    bad = []
    mon = monday(week_day)
    sun = mon + dt.timedelta(days=6)
    running = []
    for r in rows:
        start, end = r.dates()
        if start and end and start <= sun and end >= mon:
            running.append(r)
    section = md.split("## 붙임 1.", 1)[-1].split("## 붙임 2.", 1)[0]
    listed = re.findall(r"cultcode=(\d+)", section)
    want = sorted(r.id.split(":")[-1] for r in running)
    if sorted(listed) != want:
        bad.append({"at": f"{where} running list", "want": len(want), "got": len(listed),
                    "missing": sorted(set(want) - set(listed))[:5], "extra": sorted(set(listed) - set(want))[:5]})
    for r in running:
        code = r.id.split(":")[-1]
        line = next((x for x in section.splitlines() if f"cultcode={code}&" in x or x.endswith(f"cultcode={code})")), "")
        fee = line.rstrip(" |").rsplit("|", 1)[-1].strip() if line else None
        if r.get("유무료") == "무료" and not r.get("이용요금").strip() and fee != "무료":
            bad.append({"at": f"{where} fee of {r.id}", "want": "무료", "got": fee})
    return bad


def check_districts(sample, outdir, report, names):
    """Each pack's week restricted to its district, and its rank and share among the 25."""
    header, rows = read_sample(sample)
    p = json.load(open(f"{outdir}/plan.json"))
    last = week_rows(header, rows, p, 4)
    prev = week_rows(header, rows, p, 3)
    city = figures(last, DAYS[3], DAYS[3])
    running = {d: figures([r for r in last if r.get("자치구").strip() == d], DAYS[3], DAYS[3])["running"]
               for d in DISTRICTS}
    bad = []
    for d in names:
        mine = [r for r in last if r.get("자치구").strip() == d]
        want = figures(mine, DAYS[3], DAYS[3])
        got = json.load(open(f"{report}/districts/{d}/report.json", encoding="utf-8"))
        for k, v in want.items():
            if got["thisWeek"].get(k) != v:
                bad.append({"at": f"{d} thisWeek.{k}", "want": v, "got": got["thisWeek"].get(k)})
        theirs = figures([r for r in prev if r.get("자치구").strip() == d], DAYS[2], DAYS[2])
        for k in ["current", "running", "starting", "ending", "registered", "runningFree"]:
            if (got.get("previousWeek") or {}).get(k) != theirs[k]:
                bad.append({"at": f"{d} previousWeek.{k}", "want": theirs[k], "got": (got.get("previousWeek") or {}).get(k)})
        rank = 1 + sum(1 for x in DISTRICTS if running[x] > running[d])
        share = running[d] / city["running"]
        scope = got.get("district") or {}
        if scope.get("runningRank") != rank or abs(scope.get("runningShare", -1) - share) > 1e-9:
            bad.append({"at": f"{d} district", "want": [rank, share], "got": scope})
        if got["snapshot"]["programCount"] != len(mine):
            bad.append({"at": f"{d} programCount", "want": len(mine), "got": got["snapshot"]["programCount"]})
        md = open(f"{report}/districts/{d}/report.md", encoding="utf-8").read()
        if f"{len(DISTRICTS)}개 구 중 {rank}위" not in md:
            bad.append({"at": f"{d} report.md rank", "want": rank})
        # A district office's first question: what is on in our district this week — all of it.
        bad += running_list_problems(md, mine, DAYS[3], f"{d} report.md")
    print(json.dumps(bad, ensure_ascii=False, default=str))


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "check-districts":
        check_districts(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    else:
        check(sys.argv[2], sys.argv[3], sys.argv[4])
