import RaonAnalytics
import RaonCore

/// The three to five sentences of page 1, written from the figures as a Korean public
/// document words them ("이번 주 운영 중인 문화행사는 306건으로 전주(314건)보다 8건(2.5%)
/// 줄었습니다."), and their English equivalents. Pure: the same report gives the same text in
/// every format.
public enum SummarySentences {
  /// - Parameters:
  ///   - r: The report (the city's, or a district's pack).
  ///   - L: The report's words.
  /// - Returns: The sentences, in reading order.
  public static func make(_ r: ReportData, _ L: ReportLabels) -> [String] {
    let ko = L.language == .ko
    let w = L.words
    let v = r.weekView
    let against = ComparedWith.of(r)
    let previous = against == nil ? nil : r.previousWeek
    var out: [String] = []

    // 1. What runs this week, against the compared week; 2. new, starting and ending
    // (``CountPhrases``).
    out.append(
      CountPhrases.running(
        now: v.running, previous: previous?.running, place: r.district.map { L.named($0.name) }, against: against ?? .previousWeek, L))
    out.append(
      CountPhrases.registeredStartingEnding(registered: v.registered, starting: v.starting, ending: v.ending, L))

    // 3. The free share of what runs.
    if v.running > 0 {
      let share = Double(v.runningFree) / Double(v.running)
      var s =
        ko
        ? "이번 주 운영 행사 중 무료 행사 비율은 \(Percentage.text(share))"
        : "\(Percentage.text(share)) of the \(w.item.enPlural) running are free"
      if let p = previous, p.running > 0, let against {
        let delta = share - Double(p.runningFree) / Double(p.running)
        let tenths = Percentage.tenths(delta) ?? 0
        let points = Percentage.pointsMagnitudeText(delta, suffix: L.percentPoints)
        let then = L.compared(against)
        if ko {
          s += tenths == 0 ? "로 \(L.with(then, .and)) 같습니다." : "로 \(then)보다 \(points) \(tenths > 0 ? "높습니다" : "낮습니다")."
        } else {
          s += tenths == 0 ? ", as \(then)." : ", \(points) \(tenths > 0 ? "more" : "less") than \(then)."
        }
      } else {
        s += ko ? "입니다." : "."
      }
      out.append(s)
    }

    // 4. Where and what: the leading districts and categories (a pack: its place in the city).
    let categories = v.runningByCategory.filter { $0.count > 0 }
    if let d = r.district {
      let name = L.named(d.name)
      if v.running > 0, d.amongProviders {
        // One provider among the providers: its share and rank, without a breakdown by
        // provider (it is the only one) or a count of places it is not.
        out.append(
          ko
            ? "\(CountPhrases.topic(name)) \(w.whole.ko) 이번 주 운영 행사의 \(L.with(Percentage.text(d.runningShare), .toward)) \(w.group.ko) \(d.districtCount)\(w.groupPlaces) 중 \(d.runningRank)위입니다."
            : "\(name) holds \(Percentage.text(d.runningShare)) of \(w.whole.en) \(w.item.enPlural) running this week, #\(d.runningRank) of \(d.districtCount) \(w.group.enPlural).")
      } else if v.running > 0, let cats = CountPhrases.leading(categories, keep: 2, unit: L.categoryUnit, L) {
        out.append(
          ko
            ? "\(CountPhrases.topic(name)) \(w.whole.ko) 이번 주 운영 행사의 \(L.with(Percentage.text(d.runningShare), .toward)) \(d.districtCount)개 \(w.regionCounter) 중 \(d.runningRank)위이며, \(w.group.ko)별로는 \(cats)."
            : "\(name) holds \(Percentage.text(d.runningShare)) of \(w.whole.en) \(w.item.enPlural) running this week, #\(d.runningRank) of \(d.districtCount) \(w.region.enPlural); by \(w.group.en), \(cats).")
      }
    } else if v.running > 0 {
      let districts = v.runningByDistrict.filter { $0.key != w.unknownRegion }
      let ds = CountPhrases.leading(districts, keep: 3, unit: L.districtUnit, ending: .connective, L)
      // Two categories' share of all is worth saying only when there are more than two.
      let cs: String?
      if categories.count > 2 {
        let top = Array(categories.sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }.prefix(2))
        let share = Percentage.text(Double(top.reduce(0) { $0 + $1.count }) / Double(v.running))
        cs =
          ko
          ? L.with(top.map { "\($0.key)(\(count($0.count, L)))" }.joined(separator: ", "), .subject) + " 전체의 \(share)입니다"
          : top.map { "\(L.named($0.key)) (\($0.count.formatted()))" }.joined(separator: " and ") + " make up \(share) of them"
      } else {
        cs = CountPhrases.leading(categories, keep: 2, unit: L.categoryUnit, L)
      }
      let dsFinal = CountPhrases.leading(districts, keep: 3, unit: L.districtUnit, L)
      switch (ds, cs) {
      case (let ds?, let cs?):
        out.append(ko ? "\(w.region.ko)별로는 \(ds), \(w.group.ko)별로는 \(cs)." : "By \(w.region.en), \(ds); by \(w.group.en), \(cs).")
      case (_, let cs?):
        out.append(ko ? "\(w.group.ko)별로는 \(cs)." : "By \(w.group.en), \(cs).")
      case (_?, nil):
        out.append(ko ? "\(w.region.ko)별로는 \(dsFinal ?? "")." : "By \(w.region.en), \(dsFinal ?? "").")
      default: break
      }
    }

    // 5. What an official acts on: withdrawn programs and material changes.
    if let kinds = r.changeKinds {
      let (w, m) = (kinds.removedWithdrawn, kinds.changedMaterial)
      if ko {
        if w > 0 && m > 0 {
          out.append("지난 수집 이후 행사 \(count(w, L))이 종료일 전에 철회되었고, \(count(m, L))은 내용이 바뀌었습니다(붙임 4).")
        } else if w > 0 {
          out.append("지난 수집 이후 행사 \(count(w, L))이 종료일 전에 철회되었습니다(붙임 4).")
        } else if m > 0 {
          out.append("지난 수집 이후 내용이 바뀐 행사는 \(count(m, L))입니다(붙임 4).")
        } else {
          out.append("지난 수집 이후 철회되거나 내용이 바뀐 행사는 없습니다.")
        }
      } else {
        // The same cases as the Korean: both, one of them, or neither (no "0 programs were…").
        let item = L.words.item
        func were(_ n: Int) -> String { n == 1 ? "1 \(item.en) was" : "\(n.formatted()) \(item.enPlural) were" }
        let end = w == 1 ? "its end" : "their end"
        if w > 0 && m > 0 {
          out.append("Since the last collection, \(were(w)) withdrawn before \(end) and \(m.formatted()) changed (attachment 4).")
        } else if w > 0 {
          out.append("Since the last collection, \(were(w)) withdrawn before \(end) (attachment 4).")
        } else if m > 0 {
          out.append("Since the last collection, \(were(m)) changed (attachment 4).")
        } else {
          out.append("No \(item.en) was withdrawn or changed since the last collection.")
        }
      }
    }
    return out
  }

  /// `306건` / `306`.
  private static func count(_ n: Int, _ L: ReportLabels) -> String {
    L.language == .ko ? "\(n.formatted())건" : n.formatted()
  }

}
