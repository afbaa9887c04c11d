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
}
