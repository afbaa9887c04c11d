# Benchmarks: Raon against the pandas peer, side by side (see bench/bench.py and bench/RESULTS.md).
#
#   make bench         release build, then the sample (5 runs), 100,000 (3 runs) and
#                      1,000,000 programs (1 run), 365 daily snapshots, XLSX vs its floor
#                      and the national weekly job beside its peer (bench/RESULTS-national.md)
#   make bench-national  release build, then the national weekly job alone
#   make bench-quick   release build, then the sample (3 runs), 100,000 (1 run), the store, XLSX at 100,000
#
# The peer is ../shared/bench/peer_pandas.py (beside the repository) unless PEER=... is given; it needs
# `pip install pandas xlsxwriter`. Results go to bench/RESULTS.md and bench/results/*.json;
# inputs and scratch to bench/work/ (git-ignored).

PEER ?= $(abspath ../shared/bench/peer_pandas.py)
PYTHON ?= python3

.PHONY: bench bench-quick bench-site bench-weekly-mail bench-national bench-build bench-deps hostile hostile-quick

# The peer needs pandas and XlsxWriter; the tests' set-up installs neither XlsxWriter nor,
# on a bare machine, pandas.
bench-deps:
	bash scripts/install-deps.sh
	$(PYTHON) -c "import pandas, xlsxwriter" 2>/dev/null || $(PYTHON) -m pip install -q pandas xlsxwriter

bench-build: bench-deps
	swift build -c release --product raon
	swift build -c release --product raon-bench

bench: bench-build
	PEER=$(PEER) $(PYTHON) bench/bench.py --weekly-mail 4 --national 5 --year-apart 5

bench-quick: bench-build
	PEER=$(PEER) $(PYTHON) bench/bench.py --quick --runs 3 --size-runs 1 --out bench/RESULTS-quick.md

# `raon site` alone: 52 weekly points of 20,000 programs, first build and one-week rebuild.
bench-site: bench-build
	$(PYTHON) bench/bench.py --only-site --skip-peer --out bench/RESULTS-site.md

# `raon weekly` at 19,992 programs with 26 deliveries to a loopback SMTP server, beside
# `raon report --districts all` alone (issue 35: at most 20 % more).
bench-weekly-mail: bench-build
	$(PYTHON) bench/bench.py --only-weekly-mail --out bench/RESULTS-weekly-mail.md

# The national weekly job (`raon report --catalog national --input`) beside
# bench/peer_pandas_national.py on the shared download and the download ×3, alternating;
# writes bench/RESULTS-national.md.
bench-national: bench-deps
	swift build -c release --product raon
	$(PYTHON) bench/bench.py --only-national --national 5

# The hostile set (issue 18): ~900 cases against the release binary — signals, concurrency,
# full disks (root: tmpfs), foreign stores, bad configs and options, hostile inputs, an
# echoing API server on 127.0.0.1 — about 10 minutes; writes scripts/hostile/RESULTS.md.
hostile:
	bash scripts/install-deps.sh
	swift build -c release --product raon
	$(PYTHON) scripts/hostile/run_hostile.py --raon .build/release/raon --out scripts/hostile/RESULTS.md

# CI's share of it: each family's quick subset (the mail server, signals mid-delivery, mutated
# mail configs, children's environments) on the debug binary — a few minutes.
hostile-quick:
	swift build --product raon
	$(PYTHON) scripts/hostile/run_hostile.py --raon .build/debug/raon --quick
