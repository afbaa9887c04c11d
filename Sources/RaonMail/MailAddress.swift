/// An e-mail address as Raon sends to it: `local@domain`, plain ASCII, nothing a header or
/// an SMTP command could be bent with (no spaces, angle brackets, commas, quotes or
/// control characters).
///
/// ```swift
/// MailAddress("culture@example.go.kr")?.domain   // "example.go.kr"
/// MailAddress("a b@example")                     // nil
/// ```
public struct MailAddress: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  public let text: String

  /// `nil` when `text` is not a plain `local@domain` address.
  public init?(_ text: String) {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, let local = parts.first, let domain = parts.last,
      !local.isEmpty, local.utf8.count <= 64, !domain.isEmpty, text.utf8.count <= 254,
      domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains(".."),
      local.unicodeScalars.allSatisfy(Self.isLocalCharacter),
      domain.unicodeScalars.allSatisfy(Self.isDomainCharacter)
    else { return nil }
    self.text = text
  }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let address = MailAddress(text) else {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an address: \(text)"))
    }
    self = address
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
  }

  /// The part after `@`.
  public var domain: Substring { text.split(separator: "@").last ?? "" }

  public var description: String { text }

  public static func < (a: MailAddress, b: MailAddress) -> Bool { a.text < b.text }

  /// RFC 5322's atext and dots: what an unquoted local part may hold.
  private static func isLocalCharacter(_ s: Unicode.Scalar) -> Bool {
    guard s.isASCII else { return false }
    if s.properties.isAlphabetic || ("0"..."9").contains(s) { return true }
    return "!#$%&'*+-/=?^_`{|}~.".unicodeScalars.contains(s)
  }

  private static func isDomainCharacter(_ s: Unicode.Scalar) -> Bool {
    s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "-" || s == ".")
  }
}
