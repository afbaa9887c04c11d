/// The style sheet inlined into `report.html`: one column that reads on a phone and a
/// desktop, light and dark (`prefers-color-scheme`), and A4 print.
///
/// Print: `@page` A4; sections and their parts run on from page to page rather than being
/// kept whole (whole sections left half-empty pages), a heading stays with what follows
/// it, table headers repeat on each page (`thead` as `table-header-group`), rows and
/// charts are never split, tables are at most the page's width with cells that wrap, and
/// long words and URLs break rather than being cut at the
/// right edge. Printing is always light.
///
/// The font stack names the Korean faces Debian's `fonts-noto-cjk` provides first.
enum HTMLStyle {
  static let fontStack =
    "\"Noto Sans CJK KR\", \"Noto Sans KR\", \"Apple SD Gothic Neo\", \"Malgun Gothic\", sans-serif"

  static let css = """
    :root {
      color-scheme: light dark;
      --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --line: #d0d7de;
      --head: #f6f8fa; --zebra: #f6f8fa; --link: #0969da; --code: #eff2f5;
    }
    @media screen and (prefers-color-scheme: dark) {
      :root {
        --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --line: #3d444d;
        --head: #161b22; --zebra: #131820; --link: #4493f8; --code: #1f2630;
      }
      /* The charts' card and text follow the page (CSS wins over SVG attributes). */
      .chart svg > rect:first-of-type { fill: #161b22; stroke: #3d444d; }
      .chart svg > g { fill: #e6edf3; }
    }
    * { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
    body {
      margin: 0; background: var(--bg); color: var(--fg);
      font-family: \(fontStack);
      font-size: 16px; line-height: 1.55;
      word-break: keep-all; overflow-wrap: break-word;
    }
    main { max-width: 62rem; margin: 0 auto; padding: 1rem 1.25rem 2rem; }
    h1 { font-size: 1.55rem; line-height: 1.3; margin: .5rem 0 1rem; }
    h2 {
      font-size: 1.25rem; line-height: 1.3; margin: 2.25rem 0 .75rem;
      padding-bottom: .3rem; border-bottom: 1px solid var(--line);
    }
    h3 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
    p, ul { margin: .5rem 0 1rem; }
    ul { padding-left: 1.25rem; }
    li { margin: .15rem 0; }
    a { color: var(--link); overflow-wrap: anywhere; }
    /* Table cells break between words only, so every column keeps its longest word and
       the title column (links, which may break anywhere) takes what is left. */
    code {
      font-family: "Noto Sans Mono CJK KR", ui-monospace, "DejaVu Sans Mono", monospace;
      font-size: .85em; background: var(--code); padding: .05em .3em; border-radius: 4px;
      white-space: nowrap;
    }
    hr { border: 0; border-top: 1px solid var(--line); margin: 2rem 0 1rem; }
    nav.toc { font-size: .9rem; margin: 0 0 1.25rem; }
    nav.toc ol { display: flex; flex-wrap: wrap; gap: .25rem .5rem; list-style: none; margin: 0; padding: 0; }
    nav.toc a {
      display: inline-block; padding: .1rem .55rem; border: 1px solid var(--line);
      border-radius: 999px; text-decoration: none; word-break: keep-all;
    }
    .table-wrap { max-width: 100%; overflow-x: auto; margin: .5rem 0 1.25rem; }
    table {
      border-collapse: collapse; font-size: .875rem; line-height: 1.4;
      font-variant-numeric: tabular-nums;
    }
    th, td { border: 1px solid var(--line); padding: .3rem .55rem; vertical-align: top; text-align: left; }
    th { background: var(--head); font-weight: 600; }
    th[align="right"], td[align="right"] { text-align: right; }
    td[align="right"] { white-space: nowrap; }
    /* A category or a district is one name: never "교육/ 체험" over two lines. */
    td.name { white-space: nowrap; }
    .chart-block.lines svg { margin: 0 auto; }
    tbody tr:nth-child(even) td { background: var(--zebra); }
    .chart { margin: .75rem 0 1rem; }
    .chart svg { display: block; max-width: 100%; height: auto; }
    @media (max-width: 40rem) {
      /* A table wider than a phone scrolls in its own box; the page never does. */
      body { font-size: 15px; }
      main { padding: .75rem .75rem 1.5rem; }
      h1 { font-size: 1.3rem; }
      table { font-size: .72rem; }
      th, td { padding: .2rem .22rem; }
      /* A chart keeps its text legible (11 px at least: 92% of its 12–13 px type) and
         scrolls sideways in its own box when it is wider than the phone. */
      .chart { overflow-x: auto; }
      .chart svg { max-width: none; width: auto; zoom: .92; }
      /* A list of programs: one card per row, each value after its column's name. */
      table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; }
      table.stack { font-size: .85rem; }
      table.stack thead { display: none; }
      table.stack tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 .5rem; padding: .3rem 0; }
      table.stack td, table.stack tr:nth-child(even) td { border: 0; padding: .05rem .6rem; background: none; }
      table.stack td:empty { display: none; }
      table.stack td:first-child { font-weight: 600; }
      table.stack td + td::before { content: attr(data-label) " · "; color: var(--muted); }
    }
    .print-only { display: none; }
    @page { size: A4; margin: 14mm 12mm 15mm; }
    @media print {
      :root {
        color-scheme: light;
        --fg: #000000; --muted: #444c56; --bg: #ffffff; --line: #b8c0c8;
        --head: #eef1f4; --zebra: #f7f8fa; --link: #0550ae; --code: #eef1f4;
      }
      body { font-size: 10pt; line-height: 1.45; }
      main { max-width: none; padding: 0; }
      nav.toc { display: none; }
      h1 { font-size: 16pt; margin-top: 0; }
      h2 { font-size: 13pt; margin-top: 0; }
      /* A part's heading sits close to its part on paper (the screen's 1.5rem above it
         took a line's height per part). */
      h3 { margin: 3mm 0 1.5mm; }
      /* Sections and parts run on from page to page (a table's header repeats, a row or a
         chart is never split); a heading always goes with what follows it. Keeping each
         section whole left pages half empty: a district pack printed on 6 pages, 4 now. */
      section + section h2 { margin-top: 4mm; }
      h2, h3 { break-after: avoid; }
      /* A heading and the paragraph, list or chart it introduces, and a chart and its note,
         never part at a page's foot. */
      .keep, .chart-block { break-inside: avoid; }
      .table-wrap { overflow: visible; }
      table { width: 100%; max-width: 100%; font-size: 7.5pt; line-height: 1.15; }
      th, td { padding: 0.4pt 3pt; }
      thead { display: table-header-group; }
      /* A list of programs shares the width as its columns say (<colgroup>): the title
         widest, places and fees wrapping, names and dates whole. */
      table.stack { table-layout: fixed; }
      tr, .chart, svg, li { break-inside: avoid; }
      /* Charts as wide as the text column, so their labels print at the body's size or
         larger (never under 6 pt); a tall one is scaled to fit a page. */
      .chart { width: 100%; margin: 1mm 0 3mm; }
      .chart svg { width: 100%; max-height: 125mm; height: auto; }
      /* The trend's two panels in a third of a page, so a pack's trend and what follows
         share one. */
      .chart-block.lines svg { max-height: 108mm; }
      /* The glossary is looked up, not read: smaller, as a 주석 is (종로구's pack, with
         the source line below: 7 → 6 pages). */
      p.definitions, section:has(> p.definitions) > ul { font-size: 8.5pt; line-height: 1.35; }
      /* Page 1 carries the source line; its copy at the foot of the screen's page would
         print alone on a last sheet (종로구's pack: a 7th page). */
      main > hr:nth-last-child(2), main > hr + p:last-child { display: none; }
      /* Page 1 holds its chart (kept with its note) and the source line below it on one
         sheet, in a week with a comparison too. */
      main > .chart svg, main > .chart-block .chart svg { max-height: 88mm; }
      /* Page 1's headline table reads at the body's size. */
      main > .table-wrap table { width: auto; min-width: 60%; font-size: 9.5pt; line-height: 1.35; }
      main > .table-wrap th, main > .table-wrap td { padding: 1pt 6pt; }
      /* Page 1 is the summary; the attachments start on page 2. */
      main > section:first-of-type { break-before: page; }
      /* A list too long for paper names where the full list is instead. */
      section.screen-only > :not(.keep), section.screen-only > .keep > :not(h2):not(.print-only) { display: none; }
      /* A section for the screen and the workbook only (a pack's catalog statistics). */
      section.no-print { display: none; }
      .print-only { display: block; }
      main > h1 + p { margin-bottom: 3mm; }
      h2, h3, hr, section::after, .part::after { clear: both; }
      section::after, .part::after { content: ""; display: block; }
      section, .part { display: flow-root; }
      a { text-decoration: none; }
      hr { margin: 1rem 0 .5rem; }
    }
    """
}
