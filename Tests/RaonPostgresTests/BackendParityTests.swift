import Foundation
import RaonCore
import RaonPostgres
import RaonStore
import Testing
import TestSupport

/// The store's behaviour through ``SnapshotStoring``, run on both backends: each test
/// checks what it proves on the backend, and on PostgreSQL also that everything read back
/// is what the SQLite store gives for the same history (ids, programs, order, raw records).
@Suite(.serialized) struct BackendParityTests {
  /// Records the same history into the backend and into a new SQLite store.
  private func recordAlike(
    _ backend: Backend, _ history: [NewSnapshot], test: String = #function
  ) throws -> (store: any SnapshotStoring, reference: any SnapshotStoring)? {
    guard let store = try backend.makeStore(test), let reference = try Backend.sqlite.makeStore() else { return nil }
    for snapshot in history {
      let a = try store.record(snapshot)
      let b = try reference.record(snapshot)
      #expect(a == b)
    }
    return (store, reference)
  }

  @Test(arguments: Backend.allCases)
  func aSnapshotReadsBackAsRecorded(_ backend: Backend) throws {
    guard let (store, reference) = try recordAlike(backend, [Catalogs.snapshot(Catalogs.sample, day: 0)]) else { return }
    let programs = try store.programs(inSnapshot: 1)
    #expect(programs.count == Catalogs.sample.count)
    #expect(Set(programs) == Set(Catalogs.sample.map(\.program)))
    #expect(zip(programs, programs.dropFirst()).allSatisfy { !$1.id.utf8.lexicographicallyPrecedes($0.id.utf8) })
    #expect(try store.programChunks(inSnapshot: 1, chunkSize: 1_000).collect() == programs)
    #expect(try StoreContents(store) == StoreContents(reference))
  }

  @Test(arguments: Backend.allCases)
  func aHistoryReadsAlike(_ backend: Backend) throws {
    let history = [
      Catalogs.snapshot(Catalogs.sample, day: 0),
      Catalogs.snapshot(Catalogs.nextWeek, day: 7),
      Catalogs.snapshot(Catalogs.nextWeek, day: 14),
    ]
    guard let (store, reference) = try recordAlike(backend, history) else { return }
    #expect(try store.snapshots().map(\.id) == [1, 2, 3])
    #expect(try store.unchangedSince(snapshot: 3) == 2)
    // An unknown free flag stays unknown (NULL), not paid.
    #expect(try store.programs(inSnapshot: 2).filter { $0.isFree == nil }.count == 5)
    #expect(try store.programColumnChunks(inSnapshot: 2, chunkSize: 999).collect().filter { $0.isFree == nil }.count == 5)
    #expect(try store.unchangedSince(snapshot: 2) == nil)
    let differ = try store.programsThatDiffer(old: 1, new: 2)
    let expected = try reference.programsThatDiffer(old: 1, new: 2)
    #expect(differ.old == expected.old && differ.new == expected.new)
    #expect(differ.old.count >= 350)
    let infos = try store.snapshots()
    for series in [infos, infos.reversed(), [infos[2], infos[0]]] {
      let steps = try store.trendSteps(series)
      let expectedSteps = try reference.trendSteps(series)
      // A step's lists are sets (each store gives them in its own table order).
      let sorted = { (versions: [TrendVersion]) in versions.sorted { $0.versionID < $1.versionID } }
      #expect(steps.map { sorted($0.entering) } == expectedSteps.map { sorted($0.entering) })
      #expect(steps.map { sorted($0.leaving) } == expectedSteps.map { sorted($0.leaving) })
    }
    #expect(try StoreContents(store) == StoreContents(reference))
  }

  struct ProducerFailed: Error {}

  @Test(arguments: Backend.allCases)
  func aFailedRecordingLeavesNothingAndUsesNoID(_ backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    #expect(throws: ProducerFailed.self) {
      try store.record(takenAt: Date(), source: "broken.csv") { sink in
        try sink.append(Array(Catalogs.sample.prefix(2_000)))
        throw ProducerFailed()
      }
    }
    #expect(try store.snapshots().isEmpty)
    #expect(try store.record(Catalogs.snapshot(Catalogs.sample, day: 0)).id == 1)
    // Several snapshots in one transaction: a failure in the last leaves none of them.
    #expect(throws: ProducerFailed.self) {
      try store.recordingTogether { recorder in
        try recorder.record(takenAt: Date(timeIntervalSince1970: 1_726_000_000), source: "a") { sink in
          try sink.append(Catalogs.nextWeek)
          return nil
        }
        try recorder.record(takenAt: Date(timeIntervalSince1970: 1_726_100_000), source: "b") { _ in
          throw ProducerFailed()
        }
      }
    }
    #expect(try store.snapshots().map(\.id) == [1])
    #expect(try store.programs(inSnapshot: 1).count == Catalogs.sample.count)
  }

  @Test(arguments: Backend.allCases)
  func aShrunkCatalogIsRefusedAlike(_ backend: Backend) throws {
    guard var store = try backend.makeStore(), var reference = try Backend.sqlite.makeStore() else { return }
    let first = Catalogs.snapshot(Catalogs.sample, day: -300)
    try store.record(first)
    try reference.record(first)
    store.shrinkGuard = .standard
    reference.shrinkGuard = .standard
    let cut = Catalogs.snapshot(Array(Catalogs.sample.prefix(1_000)), day: -293)
    var refusals: [ShrinkRefused] = []
    for s in [store, reference] {
      do {
        try s.record(cut)
        Issue.record("\(s.location): a catalog cut to 1,000 programs was recorded")
      } catch let refusal as ShrinkRefused {
        refusals.append(refusal)
      }
    }
    #expect(refusals.count == 2 && refusals.first == refusals.last)
    #expect(try store.snapshots().count == 1)
  }

  @Test(arguments: Backend.allCases)
  func deletingASnapshotAlike(_ backend: Backend) throws {
    let history = [
      Catalogs.snapshot(Catalogs.sample, day: 0),
      Catalogs.snapshot(Catalogs.nextWeek, day: 7),
      Catalogs.snapshot(Catalogs.sample, day: 14),
    ]
    guard let (store, reference) = try recordAlike(backend, history) else { return }
    let dry = try store.deleteSnapshot(id: 2, dryRun: true)
    #expect(try store.snapshots().count == 3)
    let done = try store.deleteSnapshot(id: 2, dryRun: false)
    #expect(dry == done)
    #expect(done == (try reference.deleteSnapshot(id: 2, dryRun: false)))
    // Ids are never reused, on either store.
    let next = Catalogs.snapshot(Catalogs.nextWeek, day: 21)
    #expect(try store.record(next).id == 4)
    #expect(try reference.record(next).id == 4)
    #expect(try StoreContents(store) == StoreContents(reference))
  }

  @Test(arguments: Backend.allCases)
  func errorsAreTheSameSentences(_ backend: Backend) throws {
    guard let store = try backend.makeStore() else { return }
    try store.record(Catalogs.snapshot(Catalogs.sample, day: 0))
    #expect(throws: SnapshotStore.Error.noSuchSnapshot(id: 9, path: store.location)) {
      try store.programs(inSnapshot: 9)
    }
    #expect(throws: SnapshotStore.Error.noSuchSnapshot(id: 9, path: store.location)) {
      try store.programColumnChunks(inSnapshot: 9, chunkSize: 10)
    }
    #expect(throws: SnapshotStore.Error.noSuchSnapshot(id: 9, path: store.location)) {
      try store.details(snapshot: 9)
    }
    #expect(throws: SnapshotStore.Error.self) {
      try store.record(NewSnapshot(takenAt: Date(timeIntervalSince1970: -70_000_000_000), source: "x", sourceTotal: nil, entries: Array(Catalogs.sample.prefix(1))))
    }
  }
}
