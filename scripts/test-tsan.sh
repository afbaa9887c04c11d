#!/usr/bin/env bash
# The thread sanitizer over the suites whose code runs on several threads: every type of
# RaonConcurrency, the report job in-process (read ahead, chunks handed over, the workbook
# fed while the figures are computed, formats side by side), the workbook's ZIP deflated
# on worker threads, and the real binary's report end to end (the child processes are
# built with the sanitizer too and inherit TSAN_OPTIONS). Any race report fails the run.
#
#     bash scripts/test-tsan.sh        # scripts/test.sh runs it after the suite
#
# A build of its own (.build-tsan), so the ordinary build is left as it is. About 12 min to
# build and 3 min to run on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
SUITES='RaonConcurrencyTests'
SUITES+='|RaonWorkflowTests.ReportReadingTests|RaonWorkflowTests.ProgramChunksTests'
SUITES+='|RaonExportTests.XLSXZipPipelineTests|RaonExportTests.XLSXReportWriterTests'
SUITES+='|RaonCLITests.ReportEndToEndTests'
swift build --build-tests --sanitize=thread --scratch-path .build-tsan
# halt_on_error: the first race ends the process, so a child's report is its failure too.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter "$SUITES"
