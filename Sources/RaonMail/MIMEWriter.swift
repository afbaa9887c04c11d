import Foundation
import RaonCore

/// A ``MailMessage`` as the bytes of an Internet message (RFC 5322, MIME): headers, then
/// `multipart/mixed` holding a `multipart/alternative` (plain text, HTML) and each
/// attachment in base64. Pure: the same message gives the same bytes (the boundaries are
/// made from the Message-ID), so a message can be built again and checked.
///
/// Lines end in CRLF and none is longer than 78 characters; bodies are base64 so that
/// Korean text and any byte of a file travel through any server unchanged.
public enum MIMEWriter {
  public static func render(_ message: MailMessage) -> Data {
    let seed = SHA256.hex(message.messageID).prefix(24)
    let mixed = "=_raon_mixed_\(seed)"
    let alternative = "=_raon_alt_\(seed)"
    var out = Data()
    out.reserveCapacity(4_096 + message.attachments.reduce(0) { $0 + $1.data.count * 4 / 3 + $1.data.count / 38 })
    func line(_ text: String) { out.append(contentsOf: Array(text.utf8)); out.append(contentsOf: [13, 10]) }

    line(HeaderEncoding.mailboxHeader("From", message.from))
    line(addressHeader("To", message.to))
    line(HeaderEncoding.header("Subject", encoding: message.subject))
    line("Date: \(MailDate.header(message.date))")
    line("Message-ID: <\(message.messageID)>")
    for header in message.extraHeaders {
      line("\(header.name): \(HeaderEncoding.oneLine(header.value))")
    }
    line("MIME-Version: 1.0")
    line("Content-Type: multipart/mixed;\r\n boundary=\"\(mixed)\"")
    line("")
    line("This is a message in MIME format.")
    line("")
    line("--\(mixed)")
    line("Content-Type: multipart/alternative;\r\n boundary=\"\(alternative)\"")
    line("")
    for (type, body) in [("text/plain", message.text), ("text/html", message.html)] {
      line("--\(alternative)")
      line("Content-Type: \(type); charset=utf-8")
      line("Content-Transfer-Encoding: base64")
      line("")
      out.append(base64Lines(Data(normalisedLineEnds(body).utf8)))
    }
    line("--\(alternative)--")
    for attachment in message.attachments {
      line("")
      line("--\(mixed)")
      let name = HeaderEncoding.encodedWords(attachment.fileName, inQuotes: true).joined(separator: "\r\n ")
      line("Content-Type: \(attachment.contentType);\r\n name=\"\(name)\"")
      line("Content-Disposition: attachment;\r\n \(HeaderEncoding.extendedParameter("filename", attachment.fileName))")
      line("Content-Transfer-Encoding: base64")
      line("")
      out.append(base64Lines(attachment.data))
    }
    line("--\(mixed)--")
    return out
  }

  /// `To: a@x, b@y` folded after each comma once a line would pass 76 characters.
  static func addressHeader(_ name: String, _ addresses: [MailAddress]) -> String {
    var text = "\(name): "
    var lineLength = text.count
    for (i, address) in addresses.enumerated() {
      let piece = address.text + (i < addresses.count - 1 ? "," : "")
      if i > 0 {
        if lineLength + 1 + piece.count > 76 {
          text += "\r\n "
          lineLength = 1
        } else {
          text += " "
          lineLength += 1
        }
      }
      text += piece
      lineLength += piece.count
    }
    return text
  }

  /// Base64 in lines of 76 characters, each ending in CRLF.
  static func base64Lines(_ data: Data) -> Data {
    guard !data.isEmpty else { return Data() }
    var encoded = data.base64EncodedData(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
    encoded.append(contentsOf: [13, 10])
    return encoded
  }

  /// Every line end as CRLF (a body written with `\n`).
  static func normalisedLineEnds(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
  }
}
