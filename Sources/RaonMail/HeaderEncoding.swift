import Foundation

/// How text that is not plain ASCII travels in a header: RFC 2047 encoded words for a
/// subject (and a `name=` parameter, as mail clients expect), RFC 2231 for a file name in
/// `Content-Disposition`. Pure; every line it makes stays within 76 characters.
enum HeaderEncoding {
  /// Bytes of UTF-8 per encoded word: 39 bytes are 52 base64 characters, a word of 64, so
  /// `Subject: ` and a word fit in one 76-character line.
  static let bytesPerWord = 39

  /// `text` as RFC 2047 `B` encoded words (`=?UTF-8?B?…?=`), split between characters,
  /// never inside one; short plain ASCII without control characters stays as it is (but
  /// not in a quoted parameter when it holds a quote or a backslash: `inQuotes`; nor
  /// when `always`).
  static func encodedWords(_ text: String, inQuotes: Bool = false, always: Bool = false) -> [String] {
    let clean = oneLine(text)
    let plain = clean.unicodeScalars.allSatisfy { $0.isASCII } && clean.utf8.count <= 60 && !clean.contains("=?")
    if plain && !always && !(inQuotes && (clean.contains("\"") || clean.contains("\\"))) { return [clean] }
    var words: [String] = []
    var chunk: [UInt8] = []
    for character in clean {
      let bytes = Array(String(character).utf8)
      if !chunk.isEmpty && chunk.count + bytes.count > bytesPerWord {
        words.append(word(chunk))
        chunk = []
      }
      chunk += bytes
    }
    if !chunk.isEmpty { words.append(word(chunk)) }
    return words
  }

  private static func word(_ bytes: [UInt8]) -> String {
    "=?UTF-8?B?" + Data(bytes).base64EncodedString() + "?="
  }

  /// A header line `Name: value` with an encoded value folded one word per line.
  static func header(_ name: String, encoding value: String) -> String {
    "\(name): " + encodedWords(value).joined(separator: "\r\n ")
  }

  /// `From: 이름 <a@b>` as a header line: a short ASCII name as a quoted string, any other
  /// as encoded words (one a line), the address in angle brackets on the last line, or on
  /// a line of its own when it would make that line longer than 76 characters.
  static func mailboxHeader(_ name: String, _ mailbox: Mailbox) -> String {
    guard let display = mailbox.displayName.map(oneLine), !display.isEmpty else {
      return "\(name): \(mailbox.address.text)"
    }
    var phrase = encodedWords(display)
    if phrase.count == 1, phrase[0] == display {
      // Plain ASCII: a quoted string, so '.', ',' or '@' in it stay text — unless its
      // escapes make it too long for the line, then encoded words as any other name.
      let escaped = display.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      let quoted = "\"\(escaped)\""
      phrase = name.count + 2 + quoted.count <= 76 ? [quoted] : encodedWords(display, always: true)
    }
    let angle = "<\(mailbox.address.text)>"
    var lines = phrase
    let lastLength = (lines.count == 1 ? name.count + 2 : 1) + (lines.last?.count ?? 0)
    if lastLength + 1 + angle.count <= 76 {
      lines[lines.count - 1] += " " + angle
    } else {
      lines.append(angle)
    }
    return "\(name): " + lines.joined(separator: "\r\n ")
  }

  /// An RFC 2231 parameter (`filename*0*=UTF-8''%EC%A2…;` continued as needed), each
  /// piece on a line of its own, ready to follow `; ` in a header.
  static func extendedParameter(_ name: String, _ value: String) -> String {
    let encoded = oneLine(value).utf8.map { byte -> String in
      isAttributeCharacter(byte) ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
    }
    // Pieces of at most 60 characters, never splitting a %XX.
    var pieces: [String] = []
    var current = "UTF-8''"
    for unit in encoded {
      if current.count + unit.count > 60 {
        pieces.append(current)
        current = ""
      }
      current += unit
    }
    pieces.append(current)
    if pieces.count == 1 { return "\(name)*=\(pieces[0])" }
    return pieces.enumerated().map { "\(name)*\($0.offset)*=\($0.element)" }.joined(separator: ";\r\n ")
  }

  /// RFC 2231's attribute-char: ASCII that needs no percent-encoding.
  private static func isAttributeCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return "!#$&+-.^_`|~".utf8.contains(byte)
    }
  }

  /// Control characters (a CR or LF above all: a header must stay one header) as spaces.
  static func oneLine(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map {
      $0.properties.generalCategory == .control ? " " : $0
    }))
  }
}
