/// How pure per-item work is run: in order on the calling thread (``InOrder``), or spread
/// over the cores by the workflow (RaonConcurrency's `ParallelWork`), which keeps threads
/// out of the pure modules that take one of these.
public protocol IndexedWork {
  /// `body(0..<count)`, in index order. `body` is pure and may run on any thread.
  func map<T>(_ count: Int, _ body: (Int) -> T) -> [T]
}

/// Every item in order, on the calling thread.
public struct InOrder: IndexedWork {
  public init() {}
  public func map<T>(_ count: Int, _ body: (Int) -> T) -> [T] { (0..<count).map(body) }
}
