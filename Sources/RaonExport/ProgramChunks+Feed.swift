import RaonConcurrency
import RaonCore
import RaonErrors

extension ProgramChunks {
  /// `count` programs taken, in one pass, as another thread hands them over through
  /// `feed` (the job's loop pushes them; a sink on a thread of its own reads them here).
  ///
  /// The pass ends as soon as `count` programs have been handed over, without waiting for
  /// the feed's end: a workbook goes on with its next sheets (its changes, known before
  /// the figures) while the job is still working out the figures. It stops `feed` when it
  /// ends, however it ends, and fails if the feed finished before handing over `count`
  /// programs rather than pass fewer, or handed over more in its last chunk. A second pass
  /// fails: what was handed over is gone.
  public static func fed(by feed: HandOver<[Program]>, count: Int) -> ProgramChunks {
    let first = FirstTime()
    return ProgramChunks(count: count) { body in
      guard first.claim() else { throw FeedFailure(description: "the programs handed over were read already") }
      defer { feed.stop() }
      var handed = 0
      while handed < count, let chunk = try feed.pop() {
        handed += chunk.count
        guard handed <= count else { break }
        guard try body(chunk) else { return }
      }
      guard handed == count else {
        throw FeedFailure(description: "the pass feeding this one handed over \(handed) of \(count) programs")
      }
    }
  }

  public struct FeedFailure: RaonError, CustomStringConvertible {
    public var exitStatus: ExitStatus { .failure }
    public var description: String
  }
}
