/// A sender as a `From:` header shows it (RFC 5322's mailbox): an address, with or without
/// the name a person reads — `서울특별시 문화정책과 <culture@example.go.kr>`.
///
/// The name goes into the header RFC 2047-encoded when it is not plain ASCII (and as a
/// quoted string when it is); the SMTP envelope (`MAIL FROM`) takes ``address`` alone.
///
/// ```swift
/// Mailbox("서울특별시 문화정책과 <culture@example.go.kr>")?.displayName   // "서울특별시 문화정책과"
/// Mailbox("culture@example.go.kr")?.displayName                         // nil
/// Mailbox("\"Culture, Seoul\" <culture@example.go.kr>")?.displayName    // "Culture, Seoul"
/// ```
public struct Mailbox: Sendable, Hashable, CustomStringConvertible {
  public let address: MailAddress
  /// The name before the address, without its quotes; `nil` for a bare address.
  public let displayName: String?

  /// The longest name taken, in characters (a department's name fits many times over).
  public static let maximumNameLength = 200

  public init(_ address: MailAddress, displayName: String? = nil) {
    self.address = address
    self.displayName = displayName.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// `local@domain`, or `Name <local@domain>` (the name may be in double quotes); `nil`
  /// when it is neither (``problem(in:)`` says why).
  public init?(_ text: String) {
    guard case .mailbox(let mailbox) = Self.parse(text) else { return nil }
    self = mailbox
  }

  /// Why `text` is not a sender Raon can use, in a few words; `nil` when it is one.
  public static func problem(in text: String) -> String? {
    if case .problem(let reason) = parse(text) { return reason }
    return nil
  }

  private enum Parsed {
    case mailbox(Mailbox)
    case problem(String)
  }

  private static func parse(_ text: String) -> Parsed {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let bad = trimmed.unicodeScalars.first(where: isRefused) {
      return .problem("it holds a control or direction character (U+\(String(bad.value, radix: 16, uppercase: true)))")
    }
    guard trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") else {
      if trimmed.contains("<") || trimmed.contains(">") {
        return .problem("write the address in angle brackets after the name: Name <local@domain>")
      }
      guard let address = MailAddress(trimmed) else {
        return .problem(MailAddress.problem(in: trimmed) ?? "it is not an address")
      }
      return .mailbox(Mailbox(address))
    }
    let inside = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
    guard let address = MailAddress(inside) else {
      return .problem("<\(inside)>: " + (MailAddress.problem(in: inside) ?? "not an address"))
    }
    var name = trimmed[..<open].trimmingCharacters(in: .whitespaces)
    if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
      name = String(name.dropFirst().dropLast())
      // Inside quotes a backslash escapes the next character (RFC 5322 quoted-pair).
      var unescaped = ""
      var escaping = false
      for character in name {
        if !escaping && character == "\\" {
          escaping = true
          continue
        }
        unescaped.append(character)
        escaping = false
      }
      name = unescaped
    }
    if name.contains("<") || name.contains(">") {
      return .problem("the name holds '<' or '>' — write one address, in angle brackets after the name")
    }
    guard name.count <= maximumNameLength else {
      return .problem("the name is longer than \(maximumNameLength) characters")
    }
    return .mailbox(Mailbox(address, displayName: name.trimmingCharacters(in: .whitespaces)))
  }

  /// Control characters (a CR or LF would end the header), line and paragraph separators,
  /// and format characters such as direction overrides (a name that reads backwards)
  /// but the joiners some scripts need.
  private static func isRefused(_ s: Unicode.Scalar) -> Bool {
    switch s.properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: true
    case .format: s != "\u{200C}" && s != "\u{200D}"
    default: false
    }
  }

  /// The part after `@`.
  public var domain: Substring { address.domain }

  /// As it was written in the config: `Name <local@domain>` or `local@domain`.
  public var description: String {
    displayName.map { "\($0) <\(address.text)>" } ?? address.text
  }
}
