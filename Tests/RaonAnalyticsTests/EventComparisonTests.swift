import Foundation
import RaonCore
import Testing

@testable import RaonAnalytics

/// The comparison of two downloads of a catalog without ids (issue 36): by the natural key,
/// sessions as the rows of an event, renames quiet.
@Suite("Event comparison")
struct EventComparisonTests {
  static let header = ["행사명", "장소", "행사시작일자", "행사종료일자", "행사시작시각", "관람요금", "소재지도로명주소", "데이터기준일자", "제공기관코드", "제공기관명"]

  /// Rows → the store's (program, raw) pairs, as the normalisation makes them.
  static func snapshot(_ rows: [[String]], header: [String] = header) -> EventComparison.Snapshot {
    let names = FieldNames(header)
    let records = rows.map { RawRecord(names: names, values: $0.map { Optional($0) }) }
    let programs = NationalNormalizer.normalize(records)
    return EventComparison.events(
      programs: programs, rows: zip(programs, records).map { ($0.id, $1) }, profile: .national)
  }

  static let base: [[String]] = [
    ["음악회", "홀", "2025-03-01", "2025-03-01", "14:00", "10000", "강원도 춘천시 중앙로 1", "2025-01-01", "4180000", "강원도 춘천시"],
    ["음악회", "홀", "2025-03-01", "2025-03-01", "19:00", "10000", "강원도 춘천시 중앙로 1", "2025-01-01", "4180000", "강원도 춘천시"],
    ["연극", "극장", "2025-04-01", "2025-04-03", "19:30", "", "서울특별시 강북구 a", "2025-01-01", "3080000", "서울특별시 강북구"],
    ["전시", "관", "2025-05-01", "2025-06-01", "10:00", "", "서울특별시 강북구 a", "2025-01-01", "3080000", "서울특별시 강북구"],
  ]

  @Test func aRenameOrAReStampIsNoChange() {
    var later = Self.base.reversed().map { $0 }
    for i in later.indices where later[i][9] == "강원도 춘천시" {
      later[i][9] = "강원특별자치도 춘천시"
      later[i][8] = "4181000"
      later[i][6] = "강원특별자치도 춘천시 중앙로 1"
      later[i][7] = "2025-09-30"
    }
    let diff = EventComparison.diff(old: Self.snapshot(Self.base), new: Self.snapshot(later), profile: .national)
    #expect(diff.isEmpty)
  }

  /// An address is compared by its lineage key (a renamed 시·도 is no change), but a change
  /// shows the addresses as the rows write them: never the key's `{강원}` (issue 46: 553
  /// changed addresses of a real pair read 「{경북} 안동시 …」).
  @Test func aChangedAddressShowsTheAddressesAsWrittenNeverTheirKey() throws {
    var later = Self.base
    for i in 0...1 { later[i][6] = "강원특별자치도 춘천시 중앙로 25" }
    let diff = EventComparison.diff(old: Self.snapshot(Self.base), new: Self.snapshot(later), profile: .national)
    let changed = try #require(diff.changed.first)
    #expect(diff.changed.count == 1 && changed.fields.map(\.field) == ["roadAddress"], "\(diff.changed)")
    let field = try #require(changed.fields.first)
    #expect(field.old == "강원도 춘천시 중앙로 1" && field.new == "강원특별자치도 춘천시 중앙로 25", "\(field)")
    #expect(!field.old.contains("{") && !field.new.contains("{"))
  }

  /// Rows are digested by their bytes; a value written decomposed (NFD) is the same text,
  /// so it is no change, while a real edit next to it is one.
  @Test func aValueWrittenDecomposedIsNoChangeAndAnEditIsOne() throws {
    var later = Self.base
    later[2][1] = "극장".decomposedStringWithCanonicalMapping  // 장소 of 연극, same text
    later[3][5] = "무료".decomposedStringWithCanonicalMapping  // 관람요금 of 전시, a new value
    #expect(later[2][1].utf8.count != "극장".utf8.count)
    let diff = EventComparison.diff(old: Self.snapshot(Self.base), new: Self.snapshot(later), profile: .national)
    #expect(diff.added.isEmpty && diff.removed.isEmpty)
    let changed = try #require(diff.changed.first)
    #expect(diff.changed.count == 1 && changed.new.title == "전시", "\(diff.changed.map(\.new.title))")
    #expect(changed.fields.map(\.field) == ["feeText"], "\(changed.fields)")
  }

  @Test func sessionsAddedRemovedOrEditedChangeTheirEvent() throws {
    var later = Self.base
    later.remove(at: 1)  // a session of 음악회 gone
    later.append(["연극", "극장", "2025-04-01", "2025-04-03", "14:00", "", "서울특별시 강북구 a", "2025-01-01", "3080000", "서울특별시 강북구"])
    later[1][5] = "5000"  // and 연극's fee edited
    let diff = EventComparison.diff(old: Self.snapshot(Self.base), new: Self.snapshot(later), profile: .national)
    #expect(diff.added.isEmpty && diff.removed.isEmpty)
    #expect(diff.changed.count == 2)
    let concert = try #require(diff.changed.first { $0.new.title == "음악회" })
    #expect(concert.fields.map(\.field) == ["sessions", "startTime"])
    let play = try #require(diff.changed.first { $0.new.title == "연극" })
    #expect(play.fields.contains { $0.field == "sessions" && $0.old == "1" && $0.new == "2" })
    #expect(play.fields.contains { $0.field == "feeText" })
  }

  @Test func anEditedStartTimeIsAChangeAndAnEditedStartDayIsRemovalAndAddition() {
    var later = Self.base
    later[3][4] = "11:00"
    var moved = Self.base
    moved[3][2] = "2025-05-02"
    let timeEdit = EventComparison.diff(old: Self.snapshot(Self.base), new: Self.snapshot(later), profile: .national)
    #expect(timeEdit.changed.count == 1 && timeEdit.added.isEmpty && timeEdit.removed.isEmpty)
    let dayEdit = EventComparison.diff(old: Self.snapshot(Self.base), new: Self.snapshot(moved), profile: .national)
    #expect(dayEdit.changed.isEmpty && dayEdit.added.count == 1 && dayEdit.removed.count == 1)
  }

  @Test func aColumnOneDownloadLacksIsNotCompared() {
    // The later download has no 관람요금 column at all: its events are not all "changed".
    let header = Self.header.filter { $0 != "관람요금" }
    let later = Self.base.map { row in row.enumerated().filter { Self.header[$0.offset] != "관람요금" }.map(\.element) }
    let diff = EventComparison.diff(old: Self.snapshot(Self.base), new: Self.snapshot(later, header: header), profile: .national)
    #expect(diff.isEmpty)
    // A column present in both is compared as ever.
    var edited = later
    edited[0][4] = "15:00"
    #expect(EventComparison.diff(old: Self.snapshot(Self.base), new: Self.snapshot(edited, header: header), profile: .national).changed.count == 1)
  }

  @Test func theComparisonMirrors() {
    var later = Self.base
    later.removeLast()
    later[0][5] = "20000"
    let old = Self.snapshot(Self.base), new = Self.snapshot(later)
    let forward = EventComparison.diff(old: old, new: new, profile: .national)
    let backward = EventComparison.diff(old: new, new: old, profile: .national)
    #expect(forward.removedIds == backward.addedIds && forward.addedIds == backward.removedIds)
    #expect(forward.changedIds == backward.changedIds)
  }
}
