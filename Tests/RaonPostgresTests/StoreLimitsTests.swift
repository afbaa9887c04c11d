import Foundation
import RaonCore
import RaonStore
import Testing
import TestSupport

/// Issue 37: PostgreSQL refused what SQLite accepted (a 2,700-digit cultcode, 800 extra
/// columns: "index row size exceeds maximum", SQLSTATE 54000), so a history could not be
/// copied from one to the other. Both stores now keep the same documented limits, checked
/// before anything is written, and the limit itself is accepted on both.
@Suite struct StoreLimitsTests {
  /// `count` entries of the sample, the first with `id` and its raw record under `names`.
  static func entries(id: String? = nil, names extra: [String] = []) -> [NewSnapshot.Entry] {
    var entries = Array(Catalogs.sample.prefix(20))
    if let id { entries[0].program.id = id }
    if !extra.isEmpty {
      let raw = entries[0].raw
      let names = FieldNames(raw.names.names + extra)
      entries[0].raw = RawRecord(
        names: names, values: raw.values + extra.map { _ in "v" }, location: SourceLocation(source: "wide.csv", line: 2))
    }
    return entries
  }

  /// Names that make the record's list, as JSON (`["a","b"]`, counted here by hand), exactly
  /// `bytes` long; ASCII, so no escaping.
  static func names(addingTo base: [String], toJSONBytes bytes: Int) -> [String] {
    func json(_ names: [String]) -> Int { 2 + names.map { $0.utf8.count + 2 }.reduce(0, +) + names.count - 1 }
    var extra: [String] = []
    while json(base + extra + ["x_0000000000"]) <= bytes { extra.append("x_\(String(format: "%010d", extra.count))") }
    let missing = bytes - json(base + extra)
    if missing > 0 { extra[extra.count - 1] += String(repeating: "p", count: missing) }
    #expect(json(base + extra) == bytes)
    return extra
  }

  @Test(arguments: Backend.allCases)
  func theLimitsAreTheSameOnBothStores(backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    let base = Catalogs.sample[0].raw.names.names
    let fits = Self.names(addingTo: base, toJSONBytes: StoreLimits.maxFieldNamesBytes)
    let over = Self.names(addingTo: base, toJSONBytes: StoreLimits.maxFieldNamesBytes + 1)
    let longest = "cult:" + String(repeating: "7", count: StoreLimits.maxProgramIDBytes - 5)
    // At the limits: recorded.
    try store.record(Catalogs.snapshot(Self.entries(id: longest, names: fits), day: 0))
    #expect(try store.programs(inSnapshot: 1).contains { $0.id == longest })
    // One byte over either: refused, naming the row, and nothing of the snapshot kept.
    for (entries, says) in [
      (Self.entries(id: longest + "7"), "the program id 'cult:7777"),
      (Self.entries(names: over), "wide.csv:2: the record's"),
    ] {
      #expect {
        try store.record(Catalogs.snapshot(entries, day: 7))
      } throws: { error in
        guard let exceeded = error as? StoreLimits.Exceeded else { return false }
        return exceeded.description.contains(says) && !exceeded.description.contains("\n")
      }
      #expect(try store.snapshots().count == 1, "\(backend)")
    }
  }

  /// The issue's figures: 2,700 digits and 800 extra columns.
  @Test(arguments: Backend.allCases)
  func theIssuesRowsAreRefusedAlike(backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    for entries in [
      Self.entries(id: "cult:" + String(repeating: "1", count: 2_700)),
      Self.entries(names: (1...800).map { "_extra_\($0)" }),
    ] {
      #expect(throws: StoreLimits.Exceeded.self) { try store.record(Catalogs.snapshot(entries, day: 0)) }
    }
    #expect(try store.snapshots().isEmpty)
  }
}
