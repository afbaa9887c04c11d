#!/usr/bin/env python3
"""The peer of `raon report --catalog national`: the national weekly job done the usual
Python way (pandas + XlsxWriter), on the same file, writing the same kinds of output.

  python3 bench/peer_pandas_national.py CATALOG.csv [--compare OLDER.csv] --day YYYY-MM-DD --out DIR

Reads a portal CSV download of 전국공연행사정보표준데이터 (CP949 or UTF-8), builds the natural
key of docs/NATIONAL.md (provider lineage, folded 행사명, start day, folded 장소), folds rows
that share it into events (end = the latest, 요금정보 = the kind all rows share else 혼합,
시·도 named as on --day), then counts: events and rows, the week of --day (running / current /
starting / ending, and new = added since --compare), by 시·도 and by provider (events,
running, free, paid), 요금정보 kinds, 관람요금 bands, youngest admitted age bands, and the
quality counts (coordinates missing or outside Korea, end before start, 데이터기준일자 over
a year old, duplicate rows); with --compare, added / removed / changed events (rows compared
as a multiset, as docs/NATIONAL.md says). Writes csv/*.csv (UTF-8 with BOM), report.xlsx
(one sheet per table, an events sheet with autofilter and frozen header, a native bar
chart), report.md and report.json (headline figures under Raon's report.json names, so the
bench can check that both count the same).

The provider lineage (a provider's name -> its stable id and 시·도) is the documented rule
applied once per distinct provider name (~220), taken from the tests' independent reader
(Tests/RaonCLITests/Scripts/national_events.py, which reads the shipped region table); the
rest is pandas. Needs: pip install pandas xlsxwriter
"""
import argparse, datetime, hashlib, json, os, re, sys
import pandas as pd

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "RaonCLITests", "Scripts"))
import national_events as ne  # noqa: E402
import national_week as nw  # noqa: E402

DATE = r"^\s*(\d{4})\s*[-./년]\s*(\d{1,2})\s*[-./월]\s*(\d{1,2})(?!\d)"
FEE_BANDS = [(0, 0, "free"), (1, 10000, "1-10000"), (10001, 30000, "10001-30000"),
             (30001, 50000, "30001-50000"), (50001, 100000, "50001-100000")]
AMOUNT = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(만\s*원|만원|원)")


def read_catalog(path):
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp949", errors="replace")
    from io import StringIO
    df = pd.read_csv(StringIO(text), dtype=str, keep_default_na=False)
    df.columns = [c.strip() for c in df.columns]
    return df[(df != "").any(axis=1)].reset_index(drop=True)


def days(s):
    """A text column of dates as ISO days (None where it is not a date)."""
    m = s.str.extract(DATE)
    compact = s.str.strip().str.extract(r"^(\d{4})(\d{2})(\d{2})(?!\d)")
    m = m.where(m[0].notna(), compact)
    d = pd.to_datetime(m[0] + "-" + m[1].str.zfill(2) + "-" + m[2].str.zfill(2), format="%Y-%m-%d", errors="coerce")
    return d.dt.strftime("%Y-%m-%d").where(d.notna(), None)


def fee_kind(s):
    f = s.map(ne.fold)
    free = f.str.contains("무료") | (f == "free")
    paid = f.str.contains("유료") | (f == "paid")
    return pd.Series(pd.NA, index=s.index, dtype="object").mask(free & paid, "mixed").mask(free & ~paid, "free") \
        .mask(paid & ~free, "paid").fillna(f.str.contains("혼합").map({True: "mixed", False: "unknown"}))


def youngest_age(text):
    t = ne.fold(text)
    if not t:
        return None
    if any(w in t for w in ("전체", "누구나", "제한없음", "전연령", "모든연령")):
        return 0
    m = re.search(r"(\d+)\s*개월", t)
    if m:
        return 0
    m = re.search(r"(?:만)?(\d+)\s*(?:세|살)", t)
    if m:
        return 0 if re.search(r"(\d+)(?:세|살)(?:이하|미만)", t) and "이상" not in t else int(m.group(1))
    for word, age in (("미취학", 0), ("유아", 0), ("초등", 7), ("중학", 13), ("청소년", 13), ("고등", 16),
                      ("대학", 19), ("성인", 19)):
        if word in t:
            return age
    return None


def age_band(a):
    if a is None or pd.isna(a):
        return "unknown"
    for hi, name in ((0, "all"), (6, "0-6"), (12, "7-12"), (18, "13-18")):
        if a <= hi:
            return name
    return "19+"


def fee_band(row):
    if row.kind == "free":
        return "free"
    lo = row.fee_min
    if lo is None or pd.isna(lo):
        return "unknown"
    for a, b, name in FEE_BANDS:
        if a <= lo <= b:
            return name
    return "100001+"


def fee_min(text):
    vals = [int(float(n.replace(",", "")) * (10000 if "만" in u else 1)) for n, u in AMOUNT.findall(text or "")]
    vals += [int(n) for n in re.findall(r"(?<![\d,])(\d{3,})(?![\d,]*\s*(?:세|층|매|인|회|만|원))", text or "")]
    return min(vals) if vals else None


def keyed(df, names):
    """Each row's provider id, lineage, 시·도 (as named on the day) and natural key."""
    pairs = df[["제공기관명", "제공기관코드"]].drop_duplicates()
    ids = {(n, c): ne.provider(n, c) for n, c in pairs.itertuples(index=False)}
    df["provider"] = [ids[(n, c)] for n, c in zip(df["제공기관명"], df["제공기관코드"])]
    lineage = {p: ne.key_lineage(p) for p in df["provider"].unique()}
    province = {p: ne.province_of_id(p) for p in df["provider"].unique()}
    gov = df["provider"].map(province)
    addr = df["소재지도로명주소"].map(ne.province_of_address).fillna(df["소재지지번주소"].map(ne.province_of_address))
    df["region"] = gov.fillna(addr).fillna("기타").map(names)
    start = days(df["행사시작일자"])
    df["start"], df["end"], df["ref"] = start, days(df["행사종료일자"]), days(df["데이터기준일자"])
    folded_start = start.fillna(df["행사시작일자"].map(ne.fold))
    title, place = df["행사명"].map(ne.fold), df["장소"].map(ne.fold)
    df["key"] = ["n:" + hashlib.sha256("\x1f".join(("national-v1", lineage[p], t, s, pl)).encode()).hexdigest()[:16]
                 for p, t, s, pl in zip(df["provider"], title, folded_start, place)]
    return df


def events_of(df, day):
    names = nw.names_on(day)
    df = keyed(df, names)
    df["kind"] = fee_kind(df["요금정보"])
    df["fee_min"] = df["관람요금"].map(fee_min)
    lat, lon = pd.to_numeric(df["위도"], errors="coerce"), pd.to_numeric(df["경도"], errors="coerce")
    df["has_coords"] = lat.notna() & lon.notna()
    inside = ((lat.between(33, 38.7) & lon.between(124.5, 132)) | (lon.between(33, 38.7) & lat.between(124.5, 132)))
    df["outside"] = df["has_coords"] & ~inside
    df["end_before_start"] = df["start"].notna() & df["end"].notna() & (df["end"] < df["start"])
    df["age"] = df["입장연령"].map(youngest_age)
    df["duplicate"] = df.duplicated(keep=False)
    g = df.groupby("key", sort=True)
    kinds = g["kind"].first().where(g["kind"].nunique() == 1, "mixed")
    ev = pd.DataFrame({
        "title": g["행사명"].first(), "place": g["장소"].first(), "region": g["region"].first(),
        "provider": g["제공기관명"].first(), "start": g["start"].first(), "end": g["end"].max(),
        "sessions": g.size(), "kind": kinds, "fee_min": g["fee_min"].min(), "age": g["age"].min(),
        "ref": g["ref"].max(), "coords_missing": ~g["has_coords"].any(), "outside": g["outside"].any(),
        "end_before_start": g["end_before_start"].any(), "duplicate_row": g["duplicate"].any(),
    })
    stale = (datetime.date.fromisoformat(day) - datetime.timedelta(days=365)).isoformat()
    ev["reference_date_stale"] = ev["ref"].notna() & (ev["ref"] < stale)
    ev["fee_band"] = ev.apply(fee_band, axis=1)
    ev["age_band"] = ev["age"].map(age_band)
    return df, ev


def changes(rows_new, rows_old):
    """Added, removed and changed events: an event's rows compared as a multiset (each row's
    compared values joined into one text, sorted within the event)."""
    shared = [c for c in ne.COMPARED if c in rows_new.columns and c in rows_old.columns]
    def multisets(rows):
        values = pd.DataFrame({c: rows[c].map(ne.trimmed) for c in shared})
        for c in ("소재지도로명주소", "소재지지번주소"):
            if c in shared:
                values[c] = values[c].map(ne.address_key)
        row = values[shared[0]].str.cat([values[c] for c in shared[1:]], sep="\x1f")
        t = pd.DataFrame({"key": rows["key"], "row": row}).sort_values(["key", "row"])
        return t.groupby("key", sort=True)["row"].agg("\x1e".join)
    new, old = multisets(rows_new), multisets(rows_old)
    both = new.index.intersection(old.index)
    changed = both[new[both].values != old[both].values]
    return {"added": sorted(new.index.difference(old.index)), "removed": sorted(old.index.difference(new.index)),
            "changed": sorted(changed)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("catalog")
    ap.add_argument("--compare")
    ap.add_argument("--day", default=datetime.date.today().isoformat(), help="the report's day (the snapshot's, Korea)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(os.path.join(a.out, "csv"), exist_ok=True)
    rows, ev = events_of(read_catalog(a.catalog), a.day)
    d = datetime.date.fromisoformat(a.day)
    monday = (d - datetime.timedelta(days=d.weekday())).isoformat()
    sunday = (d + datetime.timedelta(days=6 - d.weekday())).isoformat()
    ev["running"] = ev["start"].notna() & ev["end"].notna() & (ev["start"] <= sunday) & (ev["end"] >= monday)
    ev["current"] = ev["end"].isna() | (ev["end"] >= monday)
    ev["starting"] = ev["start"].notna() & (ev["start"] >= monday) & (ev["start"] <= sunday)
    ev["ending"] = ev["end"].notna() & (ev["end"] >= monday) & (ev["end"] <= sunday)
    diff = None
    if a.compare:
        old_rows, _ = events_of(read_catalog(a.compare), a.day)
        diff = changes(rows, old_rows)
    ev["new"] = ev.index.isin(diff["added"]) if diff else False

    def by(col):
        g = ev.groupby(col)
        t = pd.DataFrame({"count": g.size(), "running": g["running"].sum(), "free": (ev["kind"] == "free").groupby(ev[col]).sum(),
                          "paid": (ev["kind"] == "paid").groupby(ev[col]).sum()})
        return t.reset_index().rename(columns={col: "key"}).sort_values(["count", "key"], ascending=[False, True])
    quality_flags = ["coords_missing", "outside", "end_before_start", "reference_date_stale", "duplicate_row"]
    tables = {
        "by_region": by("region"), "by_provider": by("provider"),
        "by_fee_kind": ev["kind"].value_counts().rename_axis("key").reset_index(name="count"),
        "by_fee": ev["fee_band"].value_counts().rename_axis("key").reset_index(name="count"),
        "by_age": ev["age_band"].value_counts().rename_axis("key").reset_index(name="count"),
        "quality": pd.DataFrame({"flag": quality_flags, "count": [int(ev[f].sum()) for f in quality_flags]}),
    }
    if diff:
        tables["changes"] = pd.DataFrame([(k, i) for k in ("added", "removed", "changed") for i in diff[k]], columns=["change", "id"])
    events = ev.reset_index()[["key", "title", "region", "provider", "place", "start", "end", "sessions", "kind",
                               "fee_min", "fee_band", "age_band", "running", "new"]]
    events.to_csv(os.path.join(a.out, "csv", "events.csv"), index=False, encoding="utf-8-sig")
    for name, t in tables.items():
        t.to_csv(os.path.join(a.out, "csv", name + ".csv"), index=False, encoding="utf-8-sig")
    with pd.ExcelWriter(os.path.join(a.out, "report.xlsx"), engine="xlsxwriter") as xw:
        for name, t in tables.items():
            t.to_excel(xw, sheet_name=name, index=False)
        events.to_excel(xw, sheet_name="events", index=False)
        ws = xw.sheets["events"]
        ws.autofilter(0, 0, len(events), len(events.columns) - 1)
        ws.freeze_panes(1, 0)
        chart = xw.book.add_chart({"type": "bar"})
        n = len(tables["by_region"])
        chart.add_series({"categories": ["by_region", 1, 0, n, 0], "values": ["by_region", 1, 2, n, 2]})
        xw.sheets["by_region"].insert_chart("G2", chart)
    week = {k: int(ev[k].sum()) for k in ("running", "current", "starting", "ending", "new")}
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write(f"# 전국 공연·행사 주간 현황 ({monday} ~ {sunday})\n\n행사 {len(ev)}건 (행 {len(rows)}개). "
                + ", ".join(f"{k} {v}" for k, v in week.items()) + "\n\n")
        for name, t in tables.items():
            if name == "changes":
                continue
            f.write(f"## {name}\n\n| " + " | ".join(map(str, t.columns)) + " |\n|" + "---|" * len(t.columns) + "\n")
            for r in t.itertuples(index=False):
                f.write("| " + " | ".join(str(v) for v in r) + " |\n")
            f.write("\n")
    def band(t):
        return [{"key": r.key, "count": int(r.count)} for r in t.itertuples(index=False)]
    running_by_region = ev[ev["running"]].groupby("region").size()
    summary = {
        "catalog": "national", "rows": int(len(rows)),
        "totals": {"programs": int(len(ev)), "free": int((ev["kind"] == "free").sum()), "paid": int((ev["kind"] == "paid").sum())},
        "thisWeek": dict(week, runningByRegion=[{"key": k, "count": int(v)} for k, v in running_by_region.items()]),
        "byRegion": band(tables["by_region"]), "byFeeKind": band(tables["by_fee_kind"]),
        "byAge": band(tables["by_age"]),
        "quality": [{"flag": r.flag, "count": int(r.count)} for r in tables["quality"].itertuples(index=False)],
        "changes": {k: len(v) for k, v in diff.items()} if diff else None,
    }
    with open(os.path.join(a.out, "report.json"), "w") as f:
        json.dump(summary, f, ensure_ascii=False)


if __name__ == "__main__":
    sys.exit(main())
