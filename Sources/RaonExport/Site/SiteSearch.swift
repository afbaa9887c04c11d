import Foundation
import RaonAnalytics
import RaonCore

/// `search.html`: every program of the history in a JSON block of the page itself (no
/// fetch, so it works opened from disk), searched by one inline script that the page's
/// Content-Security-Policy allows by its hash. `search.html?q=…&d=…&c=…&w=…&s=…` opens
/// with that search's results.
extension SitePages {
  /// At most this many results are listed (the count says how many matched).
  static let shownResults = 200

  public func search(_ histories: [ProgramHistory]) -> String {
    let path = SitePaths.search
    let last = weeks.count - 1
    let day = lastDay
    var categories = Set<String>()
    var json = "{\"count\":"
    JSONStringLiteral.append(L.siteCountTemplate, to: &json)
    json += ",\"shown\":"
    JSONStringLiteral.append(L.siteShownTemplate, to: &json)
    json += ",\"hint\":"
    JSONStringLiteral.append(L.siteSearchHint, to: &json)
    json += ",\"max\":\(Self.shownResults),\"states\":{"
    json += ProgramHistory.State.allCases.map { s in
      var e = "\"\(s.rawValue)\":"
      JSONStringLiteral.append(L.siteState(s), to: &e)
      return e
    }.joined(separator: ",")
    json += "},\"p\":["
    var first = true
    for h in ranked(histories) {
      let p = h.latest
      categories.insert(p.category)
      if !first { json += "," }
      first = false
      json += "["
      for (i, text) in [SitePaths.programFile(h.id), p.id, p.title, p.place, p.organizer, p.district, p.category]
        .enumerated()
      {
        if i > 0 { json += "," }
        JSONStringLiteral.append(text, to: &json)
      }
      json += ",\"\(h.state(lastWeek: last, day: day).rawValue)\",["
      json += h.presence.map { "[\($0.lowerBound),\($0.upperBound)]" }.joined(separator: ",")
      json += "]]"
    }
    json += "]}"
    // Inside a <script> block no `</script>` (nor `<!--`) may appear: `<` as its escape.
    json = json.replacingOccurrences(of: "<", with: "\\u003c")

    var b = "<h1>\(Self.esc(L.siteSearch))</h1>\n"
    b += searchForm(from: path, compact: false, categories: categories.sorted())
    b += "<noscript><p>\(Self.esc(L.siteNoScript))</p></noscript>\n"
    b += "<p id=\"count\" role=\"status\" aria-live=\"polite\"></p>\n<ol id=\"results\" class=\"results\"></ol>\n"
    b += "<script type=\"application/json\" id=\"raon-data\">\(json)</script>\n"
    return page(path, title: L.siteSearch, body: b, script: Self.script)
  }

  /// The order results are listed in (the script keeps it): running programs first, the
  /// soonest to end first; then upcoming ones, the soonest to start first; then the rest,
  /// the most recently ended or gone first (a program's last day is its end day, or the
  /// last week it was listed if that came sooner), so a word that also names programs of
  /// years ago still finds this week's first. Ties by id.
  public func ranked(_ histories: [ProgramHistory]) -> [ProgramHistory] {
    let last = weeks.count - 1
    let day = lastDay
    func key(_ h: ProgramHistory) -> (Int, Int, String) {
      switch h.state(lastWeek: last, day: day) {
      case .running: return (0, h.latest.endDate?.dayNumber ?? Int.max, h.id)
      case .upcoming: return (1, h.latest.startDate?.dayNumber ?? Int.max, h.id)
      case .ended, .withdrawn:
        let listed = h.presence.last.map(\.upperBound).flatMap { weeks.indices.contains($0) ? $0 : nil }
        let seen = listed.map { weeks[$0].snapshot.koreaDay } ?? day
        let gone = min(h.latest.endDate ?? seen, seen)
        return (2, -gone.dayNumber, h.id)
      }
    }
    return histories.map { (key($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
  }

  /// The search form; on the index only the words (it sends to `search.html`).
  func searchForm(from path: String, compact: Bool, categories: [String] = []) -> String {
    var f = "<form class=\"search\" id=\"search\" role=\"search\" method=\"get\" action=\"\(SitePaths.link(from: path, to: SitePaths.search))\">\n"
    f += "<label>\(Self.esc(L.siteQuery))<input type=\"search\" name=\"q\" id=\"q\" autocomplete=\"off\"></label>\n"
    if !compact {
      func select(_ name: String, _ label: String, _ options: [(String, String)]) {
        f += "<label>\(Self.esc(label))<select name=\"\(name)\" id=\"\(name)\"><option value=\"\">\(Self.esc(L.siteAny))</option>"
        for (value, text) in options { f += "<option value=\"\(Self.esc(value))\">\(Self.esc(text))</option>" }
        f += "</select></label>\n"
      }
      select("d", L.siteDistrict, areas.map { ($0.name, $0.name) })
      select("c", L.siteCategory, categories.map { ($0, $0) })
      select("w", L.week, weeks.indices.reversed().map { (String($0), weekLine(weeks[$0])) })
      select("s", L.siteState, ProgramHistory.State.allCases.map { ($0.rawValue, L.siteState($0)) })
    }
    f += "<button type=\"submit\">\(Self.esc(L.siteSearch))</button>\n</form>\n"
    return f
  }

  /// The search page's script: reads the form's values from the address, then filters
  /// on every change. Results are built as DOM nodes (text, never HTML).
  static let script = """
    (function () {
      var data = JSON.parse(document.getElementById('raon-data').textContent);
      var form = document.getElementById('search');
      var count = document.getElementById('count');
      var list = document.getElementById('results');
      var names = ['q', 'd', 'c', 'w', 's'];
      var params = new URLSearchParams(window.location.search);
      names.forEach(function (n) { if (params.has(n)) { form.elements[n].value = params.get(n); } });
      function norm(t) { return String(t).normalize('NFC').toLowerCase(); }
      var hay = data.p.map(function (p) { return norm([p[1], p[2], p[3], p[4]].join(' ')); });
      function run() {
        var text = norm(form.elements.q.value).trim();
        var words = text ? text.split(/\\s+/) : [];
        var d = form.elements.d.value, c = form.elements.c.value, s = form.elements.s.value;
        var w = form.elements.w.value === '' ? -1 : Number(form.elements.w.value);
        list.replaceChildren();
        if (!words.length && !d && !c && !s && w < 0) { count.textContent = data.hint; return; }
        var found = [];
        for (var i = 0; i < data.p.length; i++) {
          var p = data.p[i];
          if ((d && p[5] !== d) || (c && p[6] !== c) || (s && p[7] !== s)) { continue; }
          if (w >= 0 && !p[8].some(function (r) { return r[0] <= w && w <= r[1]; })) { continue; }
          if (!words.every(function (x) { return hay[i].indexOf(x) >= 0; })) { continue; }
          found.push(p);
        }
        count.textContent = data.count.replace('{n}', found.length.toLocaleString()) +
          (found.length > data.max ? ' ' + data.shown.replace('{k}', data.max) : '');
        found.slice(0, data.max).forEach(function (p) {
          var li = document.createElement('li');
          var a = document.createElement('a');
          a.href = 'programs/' + p[0];
          a.textContent = p[2] || p[1];
          var meta = document.createElement('span');
          meta.className = 'muted';
          meta.textContent = ' · ' + [p[1], p[5], p[3], data.states[p[7]]].filter(Boolean).join(' · ');
          li.appendChild(a);
          li.appendChild(meta);
          list.appendChild(li);
        });
      }
      form.addEventListener('input', run);
      form.addEventListener('change', run);
      form.addEventListener('submit', function (e) { e.preventDefault(); run(); });
      run();
    })();
    """
}
