import Foundation
import Testing

import RaonConcurrency
import RaonCore
import RaonExport
@testable import RaonWorkflow

@Suite struct ProgramChunksTests {
  struct Broken: Error, Equatable { let at: Int }

  /// Ten chunks of three programs, `cult:0` … `cult:29`, optionally failing before chunk
  /// `failAt`; counts how many chunks were made.
  final class Source: @unchecked Sendable {
    let lock = NSLock()
    var made = 0
    let failAt: Int?
    init(failAt: Int? = nil) { self.failAt = failAt }

    var chunks: ProgramChunks {
      ProgramChunks(count: 30) { [self] body in
        for c in 0..<10 {
          if c == failAt { throw Broken(at: c) }
          lock.withLock { made += 1 }
          let chunk = (0..<3).map { Program(id: "cult:\(c * 3 + $0)") }
          guard try body(chunk) else { return }
        }
      }
    }
  }

  @Test func readingAheadHandsOverTheSameChunksInOrderOnEveryPass() throws {
    let source = Source()
    let ahead = source.chunks.readingAhead()
    #expect(ahead.count == 30)
    for _ in 0..<2 {
      var sizes: [Int] = []
      var ids: [String] = []
      try ahead.forEach {
        sizes.append($0.count)
        ids += $0.map(\.id)
      }
      #expect(sizes == Array(repeating: 3, count: 10))
      #expect(ids == (0..<30).map { "cult:\($0)" })
    }
  }

  @Test func stoppingEarlyStopsTheProducer() throws {
    let source = Source()
    var seen = 0
    try source.chunks.readingAhead().scan { _ in
      seen += 1
      return seen < 2
    }
    #expect(seen == 2)
    // The chunk in use, one waiting and one being made at most: never all ten.
    #expect(source.lock.withLock { source.made } <= 4)
  }

  @Test func theProducersErrorComesAfterTheChunksBeforeIt() throws {
    var seen = 0
    #expect(throws: Broken(at: 4)) {
      try Source(failAt: 4).chunks.readingAhead().forEach { _ in seen += 1 }
    }
    #expect(seen == 4)
  }

  @Test func theConsumersErrorStopsThePass() throws {
    let source = Source()
    #expect(throws: Broken(at: -1)) {
      try source.chunks.readingAhead().forEach { _ in throw Broken(at: -1) }
    }
    #expect(source.lock.withLock { source.made } <= 3)
  }

  @Test func chunksHeldInMemoryAreOneChunkAndCollect() throws {
    let programs = (0..<5).map { Program(id: "cult:\($0)") }
    let chunks = ProgramChunks(programs)
    #expect(chunks.held == programs)
    #expect(try chunks.collect() == programs)
    var passes = 0
    try chunks.forEach { _ in passes += 1 }
    #expect(passes == 1)
  }

  /// A workbook fed by the job's loop: its pass takes what the loop pushes, in order,
  /// once; what was handed over is gone, so a second pass fails rather than pass nothing.
  @Test func aFedPassTakesThePushedChunksOnce() throws {
    let source = Source()
    let feed = HandOver<[Program]>()
    let fed = ProgramChunks.fed(by: feed, count: 30)
    let taken = PendingResult.start { () -> [String] in
      var ids: [String] = []
      try fed.forEach { ids += $0.map(\.id) }
      return ids
    }
    try source.chunks.forEach { #expect(feed.push($0)) }
    feed.finish(throwing: nil)
    #expect(try taken.wait().get() == (0..<30).map { "cult:\($0)" })
    #expect(source.made == 10, "the source was read once, by the loop")
    #expect(throws: ProgramChunks.FeedFailure.self) { try fed.collect() }
  }

  /// The pass ends once it has its count, without waiting for the feed's end: a workbook
  /// goes on with its next sheets while the job still computes the figures (the feed is
  /// finished only with them). A last chunk past the count is an error, not a longer sheet.
  @Test func aFedPassEndsOnceItHasItsCountBeforeTheFeedFinishes() throws {
    let feed = HandOver<[Program]>()
    let fed = ProgramChunks.fed(by: feed, count: 6)
    let taken = PendingResult.start { () -> [String] in
      var ids: [String] = []
      try fed.forEach { ids += $0.map(\.id) }
      return ids
    }
    #expect(feed.push((0..<3).map { Program(id: "cult:\($0)") }))
    #expect(feed.push((3..<6).map { Program(id: "cult:\($0)") }))
    // The feed's end, when it comes, carries an error (as the figures' failure would): a
    // pass that waited for the end would fail with it; one that ended at its count, or
    // still had the last chunk to take, never sees it.
    feed.finish(throwing: Broken(at: 99))
    #expect(try taken.wait().get() == (0..<6).map { "cult:\($0)" })
    #expect(feed.push([Program(id: "cult:6")]) == false, "the pass has stopped the feed")

    let over = HandOver<[Program]>()
    let fedOver = ProgramChunks.fed(by: over, count: 2)
    let failed = PendingResult.start { try fedOver.forEach { _ in } }
    #expect(over.push((0..<3).map { Program(id: "cult:\($0)") }))
    #expect(throws: ProgramChunks.FeedFailure.self) { try failed.wait().get() }
  }

  /// Fewer programs than the source holds is an error, not a short sheet; the pushing
  /// side's error comes out of the fed pass; a fed pass that stops frees the pusher.
  @Test func aFedPassFailsRatherThanPassFewerPrograms() throws {
    let short = HandOver<[Program]>()
    let fed = ProgramChunks.fed(by: short, count: 30)
    let result = PendingResult.start { try fed.forEach { _ in } }
    _ = short.push([Program(id: "cult:0")])
    short.finish(throwing: nil)
    #expect(throws: ProgramChunks.FeedFailure.self) { try result.wait().get() }

    let failing = HandOver<[Program]>()
    let fedFailing = ProgramChunks.fed(by: failing, count: 30)
    let failed = PendingResult.start { try fedFailing.forEach { _ in } }
    failing.finish(throwing: Broken(at: 7))
    #expect(throws: Broken(at: 7)) { try failed.wait().get() }

    let stopping = HandOver<[Program]>()
    let fedStopping = ProgramChunks.fed(by: stopping, count: 30)
    let stopped = PendingResult.start { try fedStopping.scan { _ in false } }
    #expect(stopping.push([Program(id: "cult:0")]))
    try stopped.wait().get()
    // The pass has ended: the pusher is told so instead of waiting for the slot.
    #expect(stopping.push([Program(id: "cult:1")]) == false)
  }
}
