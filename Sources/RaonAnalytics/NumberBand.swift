/// Bands of a whole number (``FeeBand``, ``DurationBand``): the cases are the contract's
/// keys in contract order; a value falls in the first band whose highest value it does not
/// pass, else in the open band above them all.
protocol NumberBand: CaseIterable, Hashable where AllCases == [Self] {
  /// The bands with a highest value, lowest first.
  static var bounded: [(highest: Int, band: Self)] { get }
  /// The band above the last bounded one.
  static var unbounded: Self { get }
  /// `allCases`, kept: counting asks for a band's position once per program.
  static var ordered: [Self] { get }
}

extension NumberBand {
  init(banding value: Int) {
    self = Self.bounded.first { value <= $0.highest }?.band ?? Self.unbounded
  }

  /// The band's position in `allCases`, for counting into a fixed-size array.
  var ordinal: Int { Self.ordered.firstIndex(of: self) ?? 0 }
}
