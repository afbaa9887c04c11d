/// An e-mail address as Raon sends to it: `local@domain` in plain ASCII, as RFC 5321 lets
/// a client send it without extensions. The local part is a dot-atom (RFC 5322: atext
/// between single dots, none first or last); the domain is two or more labels of letters,
/// digits and hyphens (RFC 1035/5321: 1 to 63 characters, no hyphen first or last, the
/// last not all digits). Nothing a header or an SMTP command could be bent with gets in
/// (no spaces, angle brackets, commas, quotes or control characters).
///
/// Not taken: quoted local parts (`"a b"@x.kr`), address literals (`a@[127.0.0.1]`) and
/// non-ASCII text. A Korean domain (`문화.한국`) is written in its ASCII form
/// (`xn--...`, as `idn2` prints it); a Korean local part would need SMTPUTF8, which
/// government servers do not all offer, so it is refused.
///
/// ```swift
/// MailAddress("culture@example.go.kr")?.domain   // "example.go.kr"
/// MailAddress("a b@example")                     // nil
/// MailAddress.problem(in: "a@-x.kr")             // "a label of its domain begins or ends with '-'"
/// ```
public struct MailAddress: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  public let text: String

  /// `nil` when `text` is not a plain `local@domain` address (``problem(in:)`` says why).
  public init?(_ text: String) {
    guard Self.problem(in: text) == nil else { return nil }
    self.text = text
  }

  /// Why `text` is not an address Raon sends to, in a few words; `nil` when it is one.
  public static func problem(in text: String) -> String? {
    guard !text.isEmpty else { return "it is empty" }
    guard text.unicodeScalars.allSatisfy(\.isASCII) else {
      return "it holds characters outside ASCII (write a Korean domain in its xn-- form; a Korean local part is not supported)"
    }
    guard text.utf8.count <= 254 else { return "it is longer than 254 characters" }
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, let local = parts.first, let domain = parts.last else {
      return parts.count < 2 ? "it has no '@'" : "it has more than one '@'"
    }
    if let problem = localPartProblem(local) { return problem }
    return domainProblem(domain)
  }

  /// RFC 5322's dot-atom: atext runs joined by single dots.
  private static func localPartProblem(_ local: Substring) -> String? {
    guard !local.isEmpty else { return "nothing comes before '@'" }
    guard local.utf8.count <= 64 else { return "the part before '@' is longer than 64 characters" }
    if let bad = local.unicodeScalars.first(where: { !isLocalCharacter($0) && $0 != "." }) {
      return "the part before '@' holds \(describe(bad))"
    }
    if local.hasPrefix(".") || local.hasSuffix(".") { return "the part before '@' begins or ends with '.'" }
    if local.contains("..") { return "the part before '@' has two dots in a row" }
    return nil
  }

  /// RFC 1035's labels (letters, digits, hyphens inside), two at least, the last not a number.
  private static func domainProblem(_ domain: Substring) -> String? {
    guard !domain.isEmpty else { return "nothing comes after '@'" }
    guard domain.utf8.count <= 253 else { return "the domain is longer than 253 characters" }
    if let bad = domain.unicodeScalars.first(where: { !isDomainCharacter($0) && $0 != "." }) {
      return bad == "[" || bad == "]"
        ? "an address literal ([…]) is not supported — write the server's domain name"
        : "the domain holds \(describe(bad))"
    }
    let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2 else { return "the domain has no '.' (write a full domain such as example.go.kr)" }
    for label in labels {
      if label.isEmpty { return "the domain has an empty label (a '.' first, last or twice in a row)" }
      if label.utf8.count > 63 { return "a label of the domain is longer than 63 characters" }
      if label.hasPrefix("-") || label.hasSuffix("-") { return "a label of the domain begins or ends with '-'" }
    }
    if let last = labels.last, last.allSatisfy(\.isNumber) {
      return "the domain ends in a number (an IP address is not supported — write the domain name)"
    }
    return nil
  }

  private static func describe(_ s: Unicode.Scalar) -> String {
    s.properties.generalCategory == .control || s == " "
      ? "a space or control character (U+\(String(s.value, radix: 16, uppercase: true)))" : "'\(s)'"
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

  /// RFC 5322's atext: what a dot-atom's runs may hold.
  private static func isLocalCharacter(_ s: Unicode.Scalar) -> Bool {
    guard s.isASCII else { return false }
    if s.properties.isAlphabetic || ("0"..."9").contains(s) { return true }
    return "!#$%&'*+-/=?^_`{|}~".unicodeScalars.contains(s)
  }

  private static func isDomainCharacter(_ s: Unicode.Scalar) -> Bool {
    s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "-")
  }
}
