/// Where a catalog's places may lie: a box of latitudes and longitudes, a point at its
/// centre (which of two coordinates is the latitude is decided by value, and when neither
/// order is plainly Korean, the order that lands nearer this point wins), and the quality
/// flag a readable coordinate outside the box gets.
public struct CoordinateBounds: Sendable, Hashable {
  public let latitudes: ClosedRange<Double>
  public let longitudes: ClosedRange<Double>
  public let centre: (latitude: Double, longitude: Double)
  public let outsideFlag: QualityFlags

  public init(
    latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>,
    centre: (latitude: Double, longitude: Double), outsideFlag: QualityFlags
  ) {
    self.latitudes = latitudes
    self.longitudes = longitudes
    self.centre = centre
    self.outsideFlag = outsideFlag
  }

  /// Whether a point lies in the box.
  public func contains(latitude: Double, longitude: Double) -> Bool {
    latitudes.contains(latitude) && longitudes.contains(longitude)
  }

  public static func == (a: CoordinateBounds, b: CoordinateBounds) -> Bool {
    a.latitudes == b.latitudes && a.longitudes == b.longitudes && a.centre == b.centre
      && a.outsideFlag == b.outsideFlag
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(latitudes.lowerBound)
    hasher.combine(longitudes.lowerBound)
    hasher.combine(outsideFlag)
  }
}
