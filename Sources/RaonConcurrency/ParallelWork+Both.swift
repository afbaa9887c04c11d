extension ParallelWork {
  /// Two independent steps side by side: `first` on the calling thread, `second` on a
  /// thread of its own; returns both results once both are done. When both fail, `first`'s
  /// error is thrown.
  ///
  /// ```swift
  /// let (recorded, changes) = try ParallelWork.both({ try record(input) }, { try compare(input, stored) })
  /// ```
  public static func both<A, B: Sendable>(_ first: () throws -> A, _ second: @escaping @Sendable () throws -> B)
    throws -> (A, B)
  {
    let other = PendingResult.start(second)
    let a = Result { try first() }
    let b = other.wait()
    return (try a.get(), try b.get())
  }
}
