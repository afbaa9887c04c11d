import RaonConcurrency
import RaonCore
import RaonErrors

extension ProgramChunks {
  /// The same programs, whose first pass takes the chunks another pass over them pushes
  /// into `feed` (so that one reading from the store serves both); any later pass reads
  /// `self` again.
  ///
  /// The first pass stops `feed` when it ends, however it ends, and fails if the feed
  /// finished before handing over ``count`` programs rather than pass fewer.
  public func fedOnce(by feed: HandOver<[Program]>) -> ProgramChunks {
    let first = FirstTime()
    let again = self
    let count = self.count
    return ProgramChunks(count: count) { body in
      guard first.claim() else { return try again.scan(body) }
      defer { feed.stop() }
      var handed = 0
      while let chunk = try feed.pop() {
        handed += chunk.count
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
