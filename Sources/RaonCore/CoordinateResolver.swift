/// Turns the catalog's two coordinate columns into a latitude and a longitude.
///
/// Sources disagree on which column is which (위도(X좌표) / 위도(Y좌표), LAT / LOT have all
/// been seen either way round), so the axis is decided by value, never by label: Korea's
/// latitudes lie near 33…39 and its longitudes near 124…132.
///
/// ```swift
/// CoordinateResolver.resolve("127.0142", "37.4802")
/// // latitude 37.4802, longitude 127.0142, no flags
/// ```
public enum CoordinateResolver {
  /// The outcome of resolving one record's coordinates.
  public struct Resolution: Sendable, Hashable {
    public var latitude: Double?
    public var longitude: Double?
    /// `.coordsMissing` or the bounds' outside flag (`.coordsOutsideSeoul`,
    /// `.coordsOutsideKorea`), or none.
    public var flags: QualityFlags

    public init(latitude: Double?, longitude: Double?, flags: QualityFlags) {
      self.latitude = latitude
      self.longitude = longitude
      self.flags = flags
    }
  }

  /// Latitudes and longitudes that can only be one axis in Korea.
  static let koreanLatitudes = 33.0...39.0
  static let koreanLongitudes = 124.0...132.0

  /// Resolves the two coordinate values of a record, in whatever order they came.
  ///
  /// Missing, unreadable or zero values (and values that cannot be degrees at all) give no
  /// coordinates and `.coordsMissing`. Readable coordinates outside the catalog's box are
  /// kept and flagged with its ``CoordinateBounds/outsideFlag``.
  ///
  /// - Parameter bounds: The catalog's (``CatalogProfile/coordinates``).
  public static func resolve(_ first: String?, _ second: String?, within bounds: CoordinateBounds)
    -> Resolution
  {
    guard let a = first.flatMap(degrees), let b = second.flatMap(degrees), a != 0, b != 0 else {
      return Resolution(latitude: nil, longitude: nil, flags: .coordsMissing)
    }
    let (latitude, longitude) = assign(a, b, centre: bounds.centre)
    guard abs(latitude) <= 90, abs(longitude) <= 180 else {
      // Not WGS84 degrees (a projected x/y, say): as good as missing.
      return Resolution(latitude: nil, longitude: nil, flags: .coordsMissing)
    }
    let inside = bounds.contains(latitude: latitude, longitude: longitude)
    return Resolution(
      latitude: latitude, longitude: longitude, flags: inside ? [] : bounds.outsideFlag)
  }

  /// Which of two values is the latitude: the one in Korea's latitude band when the other
  /// is in its longitude band; otherwise the order that lands closer to the catalog's centre.
  static func assign(_ a: Double, _ b: Double, centre: (latitude: Double, longitude: Double))
    -> (latitude: Double, longitude: Double)
  {
    if koreanLatitudes.contains(a) && koreanLongitudes.contains(b) { return (a, b) }
    if koreanLatitudes.contains(b) && koreanLongitudes.contains(a) { return (b, a) }
    func distance(_ lat: Double, _ lon: Double) -> Double {
      let dLat = lat - centre.latitude
      let dLon = lon - centre.longitude
      return dLat * dLat + dLon * dLon
    }
    return distance(a, b) <= distance(b, a) ? (a, b) : (b, a)
  }

  /// Degrees from decimal text (`37.4802401962069`) or degrees-minutes-seconds
  /// (`37°32'05.0'N`, `126° 59′ 43″ E`); `nil` when unreadable or not finite.
  public static func degrees(_ text: String) -> Double? {
    let trimmed = CatalogText.trimmed(text)
    if trimmed.isEmpty { return nil }
    return UTF8Scanning.withBytes(trimmed) { bytes -> Double? in
      if let value = fastDecimal(bytes) { return value }
      if let value = Double(trimmed) { return value.isFinite ? value : nil }
      return dms(bytes)
    }
  }

  /// Powers of ten that a `Double` holds exactly.
  private static let exactPowersOfTen: [Double] = (0...22).map { k in
    var p = 1.0
    for _ in 0..<k { p *= 10 }
    return p
  }

  /// `[-]digits[.digits]` with at most 15 significant digits, the catalog's usual form.
  ///
  /// When the digits fit in 2^53 and the power of ten is exact, one division is correctly
  /// rounded (Clinger's fast path), so this gives the same `Double` as the standard
  /// parser, without its cost; anything else falls back to it.
  private static func fastDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var i = 0
    var negative = false
    if i < bytes.count, bytes[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    var mantissa: UInt64 = 0
    var digitCount = 0
    var fractionDigits = 0
    var sawPoint = false
    let start = i
    while i < bytes.count {
      let b = bytes[i]
      if UTF8Scanning.isDigit(b) {
        mantissa = mantissa &* 10 &+ UInt64(b &- 0x30)
        digitCount += 1
        if sawPoint { fractionDigits += 1 }
        if digitCount > 15 { return nil }
      } else if b == UInt8(ascii: "."), !sawPoint {
        sawPoint = true
      } else {
        return nil
      }
      i += 1
    }
    guard digitCount > 0, i > start, fractionDigits <= 22 else { return nil }
    let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
    return negative ? -value : value
  }

  /// Parses `D°M'S"H`: up to three numbers, the first followed by a degree sign; minutes and
  /// seconds may be marked with `'`, `"`, `′`, `″` (or `''`); a final N/S/E/W sets the sign.
  private static func dms(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var parts: [Double] = []
    var sawDegreeSign = false
    var negative = false
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if UTF8Scanning.isDigit(b) {
        guard parts.count < 3 else { return nil }
        var j = i
        while j < bytes.count, UTF8Scanning.isDigit(bytes[j]) || bytes[j] == UInt8(ascii: ".") {
          j += 1
        }
        guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<j]), as: UTF8.self))
        else { return nil }
        parts.append(value)
        i = j
        continue
      }
      switch b {
      case 0xC2 where i + 1 < bytes.count && bytes[i + 1] == 0xB0:  // °
        guard parts.count == 1 else { return nil }
        sawDegreeSign = true
        i += 2
        continue
      case UInt8(ascii: "'"), UInt8(ascii: "\""), 0x20, 0x09:
        break
      case UInt8(ascii: "-"):
        guard parts.isEmpty else { return nil }
        negative = true
      case UInt8(ascii: "N"), UInt8(ascii: "E"), UInt8(ascii: "n"), UInt8(ascii: "e"):
        break
      case UInt8(ascii: "S"), UInt8(ascii: "W"), UInt8(ascii: "s"), UInt8(ascii: "w"):
        negative = true
      default:
        if UTF8Scanning.matches(bytes, at: i, Glyph.prime)
          || UTF8Scanning.matches(bytes, at: i, Glyph.doublePrime)
        {
          i += 3
          continue
        }
        return nil
      }
      i += 1
    }
    guard sawDegreeSign, let d = parts.first else { return nil }
    let m = parts.count > 1 ? parts[1] : 0
    let s = parts.count > 2 ? parts[2] : 0
    guard m < 60, s < 60 else { return nil }
    let value = d + m / 60 + s / 3600
    return negative ? -value : value
  }
}
