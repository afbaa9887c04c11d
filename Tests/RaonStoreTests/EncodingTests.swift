import Foundation
import GRDB
import RaonCore
import Testing
import TestSupport

@testable import RaonStore

@Suite("What the store writes into its columns")
struct EncodingTests {
  @Test(arguments: [
    [],
    ["", nil, "plain", "한글 값", "a/b", "quote \" and back\\slash", "line\nbreak\r\ttab"],
    ["\u{0}\u{1}\u{1F}\u{7F}", "🎭 emoji", "\u{FFFD}", "\u{2028}"],
  ] as [[String?]])
  func jsonArraysRoundTrip(values: [String?]) throws {
    let text = CompactJSON.array(values)
    #expect(try CompactJSON.parseArray(text) == values)
    // Readable by any JSON parser, not only ours.
    let foreign = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any]
    #expect(foreign?.count == values.count)
  }

  @Test func jsonTextIsCompactAndLeavesKoreanAndSlashesAlone() throws {
    #expect(CompactJSON.array(["강남구", nil, "https://a/b", "say \"hi\"\n"]) ==
      #"["강남구",null,"https://a/b","say \"hi\"\n"]"#)
    #expect(CompactJSON.object([("place", .integer(4)), ("fee_text", .string("무료"))]) ==
      #"{"place":4,"fee_text":"무료"}"#)
    let members = try CompactJSON.parseObject(#"{"place":4,"fee_text":"무료","x":null}"#)
    #expect(members["place"] == .integer(4))
    #expect(members["fee_text"] == .string("무료"))
    #expect(members["x"] == .null)
    #expect(members["y"] == nil)
    #expect(members.pairs.count == 3)
    // Foundation's fallback (a \u escape) gives the same members.
    #expect(try CompactJSON.parseObject(#"{"x":null,"fee_text":"\uBB34료","place":4}"#) == members)
    #expect(throws: CompactJSON.SyntaxError.self) { try CompactJSON.parseArray("[1]") }
    #expect(throws: CompactJSON.SyntaxError.self) { try CompactJSON.parseArray("[\"a\"") }
  }

  @Test(arguments: [
    (0.0, "1970-01-01T00:00:00Z"),
    (1_725_840_000, "2024-09-09T00:00:00Z"),
    (1_725_863_412.345, "2024-09-09T06:30:12.345Z"),
    (1_725_863_412.0004, "2024-09-09T06:30:12Z"),
    (951_782_400.5, "2000-02-29T00:00:00.500Z"),
    (-86_400.001, "1969-12-30T23:59:59.999Z"),
  ])
  func timestampsAreISOUTC(seconds: Double, text: String) throws {
    let date = Date(timeIntervalSince1970: seconds)
    #expect(ISOTimestamp.format(date) == text)
    #expect(ISOTimestamp.parse(text) == ISOTimestamp.rounded(date))
  }

  @Test func timesOutsideFourDigitYearsAreRefused() throws {
    #expect(ISOTimestamp.format(Date(timeIntervalSince1970: .infinity)) == nil)
    #expect(ISOTimestamp.format(Date(timeIntervalSince1970: .nan)) == nil)
    #expect(ISOTimestamp.format(Date(timeIntervalSince1970: 253_402_300_800)) == nil)  // year 10000
    #expect(ISOTimestamp.format(Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59Z")
    #expect(ISOTimestamp.format(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
    let store = try SnapshotStore.inMemory()
    var snapshot = SyntheticCatalog.snapshot([1: 0])
    snapshot.takenAt = Date(timeIntervalSince1970: 1e13)  // year 318857
    #expect(throws: SnapshotStore.Error.self) { try store.record(snapshot) }
    #expect(try store.snapshots().isEmpty)
  }

  @Test func malformedTimestampsAreRejected() {
    for text in ["2024-09-09", "2024-09-09T00:00:00", "2024-09-09 00:00:00Z", "2024-13-09T00:00:00Z",
      "2024-09-09T24:00:00Z", "2024-09-09T00:00:00.Z", "2024-09-09T00:00:00+09:00"]
    {
      #expect(ISOTimestamp.parse(text) == nil, "\(text)")
    }
  }

  @Test func rawHashFollowsTheDocumentedRecipe() throws {
    let store = try SnapshotStore.inMemory()
    let raw = RawRecord(
      names: FieldNames(["TITLE", "자치구", "EMPTY"]), values: ["a,b:c", nil, ""],
      invalidBytesReplaced: true)
    try store.record(
      NewSnapshot(takenAt: Date(), source: "t", sourceTotal: nil,
        entries: [NewSnapshot.Entry(program: Program(id: "h:0"), raw: raw)]))
    // Built here from SCHEMA.md's description, not with the store's code.
    let canonical = "raon-raw-v1\n" + "5:TITLE," + "5:a,b:c," + "9:자치구," + "~" + "5:EMPTY," + "0:," + "|1"
    let stored = try store.writer.read { try String.fetchOne($0, sql: "SELECT lower(hex(raw_hash)) FROM program_version") }
    #expect(stored == SHA256.hex(canonical))
  }

  @Test func programTextRefersToRawValuesAndKeepsTheRest() throws {
    let store = try SnapshotStore.inMemory()
    let entry = SyntheticCatalog.entry(1)
    var edited = SyntheticCatalog.entry(2)
    edited.program.place = "정규화된 장소"
    edited.program.orgLink = ""
    try store.record(NewSnapshot(takenAt: Date(), source: "t", sourceTotal: nil, entries: [entry, edited]))
    let texts = try store.writer.read {
      try String.fetchAll($0, sql: "SELECT program_text FROM program_version ORDER BY program_id")
    }
    #expect(texts == [
      #"{"place":4,"organizer":5,"audience":6,"fee_text":7,"theme":17,"portal_url":21,"org_link":11,"image_url":12,"registered_on":"2024-08-29"}"#,
      #"{"place":"정규화된 장소","organizer":5,"audience":6,"fee_text":7,"theme":17,"portal_url":21,"image_url":12,"registered_on":"2024-08-29"}"#,
    ])
    #expect(try store.programs(inSnapshot: 1) == [entry.program, edited.program])
  }
}

@Suite("SCHEMA.md")
struct SchemaDocumentTests {
  /// The SQL block after the `example-query` marker.
  static func exampleQuery() throws -> String {
    let url = Fixtures.repositoryRoot.appendingPathComponent("Sources/RaonStore/SCHEMA.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    let afterMarker = try #require(text.range(of: "<!-- example-query")).upperBound
    let open = try #require(text.range(of: "```sql\n", range: afterMarker..<text.endIndex))
    let close = try #require(text.range(of: "```", range: open.upperBound..<text.endIndex))
    return String(text[open.upperBound..<close.lowerBound])
  }

  @Test func exampleQueryReturnsTheProgramsOfASnapshot() throws {
    let store = try SnapshotStore.inMemory()
    let first = try store.record(SyntheticCatalog.snapshot([1: 0, 2: 0, 3: 0]))
    let second = try store.record(SyntheticCatalog.snapshot([2: 0, 3: 1, 4: 0], day: 1))
    let sql = try Self.exampleQuery()
    for info in [first, second] {
      let rows = try store.writer.read { db in
        try Row.fetchAll(db, sql: sql, arguments: ["n": info.id]).map { $0[0] as String }
      }
      #expect(rows == (try store.programs(inSnapshot: info.id)).map(\.id))
    }
  }

  @Test func everyColumnIsDocumented() throws {
    let url = Fixtures.repositoryRoot.appendingPathComponent("Sources/RaonStore/SCHEMA.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    let store = try SnapshotStore.inMemory()
    for table in [
      "snapshot", "program_version", "field_set", "presence", "snapshot_program", "weekly_run", "weekly_message",
      "weekly_delivery",
    ] {
      let columns = try store.writer.read { try $0.columns(in: table).map(\.name) }
      #expect(!columns.isEmpty)
      for column in columns {
        #expect(text.contains("`\(column)`") || text.contains(column + ","), "\(table).\(column)")
      }
    }
  }
}

@Suite("Damaged stores")
struct DamagedStoreTests {
  /// Recording extends every interval that reached the previous snapshot in one
  /// statement; a store where a version has two such intervals is refused, and the
  /// recording leaves nothing behind.
  @Test func overlappingIntervalsAreReportedAndNothingIsRecorded() throws {
    let store = try SnapshotStore.inMemory()
    let catalog = SyntheticCatalog.catalog(count: 3)
    let first = try store.record(SyntheticCatalog.snapshot(catalog, day: 0))
    let second = try store.record(SyntheticCatalog.snapshot(catalog, day: 1))
    try store.writer.write { db in
      // A second interval of version 1 ending at the latest snapshot.
      try db.execute(
        sql: "INSERT INTO presence (version_id, first_snapshot_id, last_snapshot_id, copies) VALUES (1, ?, ?, 1)",
        arguments: [second.id, second.id])
    }
    let presence = try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM presence") }
    #expect {
      try store.record(SyntheticCatalog.snapshot(catalog, day: 2))
    } throws: { error in
      guard case .corrupt(_, let detail)? = error as? SnapshotStore.Error else { return false }
      return detail.contains("4 presence intervals reached snapshot \(second.id) for 3 versions")
    }
    #expect(try store.snapshots().map(\.id) == [first.id, second.id])
    #expect(try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM presence") } == presence)
  }


  @Test func anUnreadableValueIsReportedAsCorruption() throws {
    let store = try SnapshotStore.inMemory()
    let info = try store.record(SyntheticCatalog.snapshot([1: 0, 2: 0]))
    try store.writer.write { db in
      try db.execute(sql: "UPDATE program_version SET program_text = '{\"place\":99}' WHERE program_id = 'cult:100002'")
    }
    #expect {
      try store.programs(inSnapshot: info.id)
    } throws: { error in
      guard case .corrupt(_, let detail)? = error as? SnapshotStore.Error else { return false }
      return detail.contains("raw value 99")
    }
    try store.writer.write { db in
      try db.execute(sql: "UPDATE snapshot SET taken_at = 'yesterday'")
    }
    #expect {
      try store.snapshots()
    } throws: { error in
      guard case .corrupt(_, let detail)? = error as? SnapshotStore.Error else { return false }
      return detail.contains("'yesterday'")
    }
  }
}
