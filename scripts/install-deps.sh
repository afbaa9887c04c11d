#!/usr/bin/env bash
# Installs what Raon needs on Debian when it is missing: the C libraries libxlsxwriter, zlib,
# libxml2 (its headers: the .xlsx reader streams its parts through libxml2) and libcurl
# (its SMTP client sends `raon weekly`'s mail), and pkg-config (to build), and with --test
# Chromium, fonts-noto-cjk and poppler-utils (the HTML/PDF tests), LibreOffice Calc (the
# workbook's print tests), Debian's postgresql
# (the PostgreSQL store's tests start a private server from its binaries on 127.0.0.1) and
# the Python packages the tests read outputs with (and aiosmtpd, the mail tests' server).
# Uses sudo only when not root. Idempotent: does nothing when everything is there.
set -euo pipefail

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
pkg-config --exists xlsxwriter 2>/dev/null || missing+=(libxlsxwriter-dev)
# zlib's headers: the workbook's large parts are deflated in blocks on every core (CXlsxDeflate).
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
pkg-config --exists libxml-2.0 2>/dev/null || missing+=(libxml2-dev)
# libcurl's headers: `raon weekly` sends its mail through libcurl's SMTP client.
pkg-config --exists libcurl 2>/dev/null || missing+=(libcurl4-openssl-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v python3 >/dev/null 2>&1 || missing+=(python3 python3-pip)
# With --test: a Korean font, so the notebooks' charts render Hangul (not boxes); and for
# the HTML/PDF tests a real Chromium to render and print with, the Noto CJK fonts the
# report's font stack names, and poppler-utils (pdfinfo, pdftoppm) to read the PDF.
if [ "${1:-}" = "--test" ]; then
  fc-list :lang=ko 2>/dev/null | grep -q . || missing+=(fonts-nanum fontconfig)
  if [ -z "${RAON_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1 \
    && ! command -v chromium-browser >/dev/null 2>&1 && ! command -v google-chrome >/dev/null 2>&1; then
    missing+=(chromium)
  fi
  fc-list 2>/dev/null | grep -q "Noto Sans CJK" || missing+=(fonts-noto-cjk fontconfig)
  command -v pdfinfo >/dev/null 2>&1 || missing+=(poppler-utils)
  # The workbook's print tests print report.xlsx through LibreOffice Calc (soffice --headless).
  command -v soffice >/dev/null 2>&1 || missing+=(libreoffice-calc)
  # The site's browser tests drive headless Chromium through Selenium and chromedriver.
  command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
  # The mail tests' SMTP server (aiosmtpd) makes its throwaway CA with `cryptography`;
  # `systemd-analyze verify` checks the weekly service's units.
  command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
  # The server binaries (initdb, pg_ctl, postgres) and psql; the tests start and stop their
  # own server, so the package's own cluster need not run.
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v psql >/dev/null 2>&1 \
    || missing+=(postgresql postgresql-client)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian packages: ${missing[*]}" >&2
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ "${1:-}" = "--test" ]; then
  # Independent readers for the tests (openpyxl for XLSX) and the notebook runner.
  req="$(dirname "$0")/../notebooks/requirements.txt"
  if ! python3 -c "import openpyxl, pandas, matplotlib, nbclient, nbformat, ipykernel, pymupdf" 2>/dev/null; then
    echo "installing Python packages for the tests" >&2
    pip_args=(-q install --disable-pip-version-check)
    [ "$(id -u)" -eq 0 ] && pip_args+=(--root-user-action=ignore)
    if [ -f "$req" ]; then
      python3 -m pip "${pip_args[@]}" -r "$req"
    else
      python3 -m pip "${pip_args[@]}" openpyxl
    fi
  fi
  if ! python3 -c "import aiosmtpd, cryptography" 2>/dev/null; then
    echo "installing aiosmtpd for the mail tests' SMTP server" >&2
    python3 -m pip -q install --disable-pip-version-check \
      $([ "$(id -u)" -eq 0 ] && echo --root-user-action=ignore) aiosmtpd cryptography
  fi
  if ! python3 -c "import selenium" 2>/dev/null; then
    echo "installing selenium for the site's browser tests" >&2
    python3 -m pip -q install --disable-pip-version-check \
      $([ "$(id -u)" -eq 0 ] && echo --root-user-action=ignore) selenium
  fi
fi
