/// A snapshot's programs in id order, handed over a chunk at a time, as often as needed.
///
/// A report reads every program several times (statistics, the workbook's programs sheet,
/// `programs.csv`). A small catalog is simply held in memory; a large one is read from the
/// store chunk by chunk on each pass, so a million programs never sit in memory at once.
/// Consumers see the same thing either way.
///
/// ```swift
/// let chunks = ProgramChunks(programs)          // in memory
/// try chunks.forEach { chunk in print(chunk.count) }
/// ```
public struct ProgramChunks: Sendable {
  /// How many programs one pass hands over in total.
  public let count: Int
  /// The programs, when held in memory.
  public let held: [Program]?
  private let pass: @Sendable (_ body: ([Program]) throws -> Bool) throws -> Void

  /// Programs read by `pass`, which calls its argument with each chunk in order and stops
  /// when it returns `false`. `pass` may be called any number of times, also concurrently.
  public init(count: Int, pass: @escaping @Sendable (_ body: ([Program]) throws -> Bool) throws -> Void) {
    self.count = count
    self.held = nil
    self.pass = pass
  }

  /// Programs held in memory, handed over as one chunk.
  public init(_ programs: [Program]) {
    self.count = programs.count
    self.held = programs
    self.pass = { body in
      if !programs.isEmpty { _ = try body(programs) }
    }
  }

  /// Calls `body` with every chunk, in order.
  public func forEach(_ body: ([Program]) throws -> Void) throws {
    try pass { chunk in
      try body(chunk)
      return true
    }
  }

  /// Calls `body` with chunks in order until it returns `false` (a search that can stop
  /// early).
  public func scan(_ body: ([Program]) throws -> Bool) throws {
    try pass(body)
  }

  /// Every program in one array (tests, small catalogs).
  public func collect() throws -> [Program] {
    var all: [Program] = []
    all.reserveCapacity(count)
    try forEach { all.append(contentsOf: $0) }
    return all
  }
}
