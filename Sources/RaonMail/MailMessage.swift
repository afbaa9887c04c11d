import Foundation

/// One message as Raon sends it: a plain-text and an HTML body (the same content) and
/// files attached. ``MIMEWriter`` turns it into the bytes handed to the server.
public struct MailMessage: Sendable, Equatable {
  /// The sender as `From:` shows it (a name is RFC 2047-encoded on the way out).
  public var from: Mailbox
  /// The recipient list the `To:` header names (each address gets the message once).
  public var to: [MailAddress]
  /// The subject as a person reads it (encoded on the way out: RFC 2047).
  public var subject: String
  public var date: Date
  /// The `Message-ID` without its angle brackets: `left@right`.
  public var messageID: String
  public var text: String
  public var html: String
  public var attachments: [MailAttachment]
  /// Further headers, written as they are (ASCII, one line each): `Auto-Submitted`, say.
  public var extraHeaders: [(name: String, value: String)]

  public init(
    from: Mailbox, to: [MailAddress], subject: String, date: Date, messageID: String,
    text: String, html: String, attachments: [MailAttachment] = [],
    extraHeaders: [(name: String, value: String)] = []
  ) {
    self.from = from
    self.to = to
    self.subject = subject
    self.date = date
    self.messageID = messageID
    self.text = text
    self.html = html
    self.attachments = attachments
    self.extraHeaders = extraHeaders
  }

  /// A message from a bare address.
  public init(
    from: MailAddress, to: [MailAddress], subject: String, date: Date, messageID: String,
    text: String, html: String, attachments: [MailAttachment] = [],
    extraHeaders: [(name: String, value: String)] = []
  ) {
    self.init(
      from: Mailbox(from), to: to, subject: subject, date: date, messageID: messageID, text: text, html: html,
      attachments: attachments, extraHeaders: extraHeaders)
  }

  public static func == (a: MailMessage, b: MailMessage) -> Bool {
    a.from == b.from && a.to == b.to && a.subject == b.subject && a.date == b.date
      && a.messageID == b.messageID && a.text == b.text && a.html == b.html
      && a.attachments == b.attachments
      && a.extraHeaders.map { [$0.name, $0.value] } == b.extraHeaders.map { [$0.name, $0.value] }
  }
}

/// A file attached to a message, under the name a person sees (Korean is fine: RFC 2231).
public struct MailAttachment: Sendable, Equatable {
  public var fileName: String
  /// `application/pdf`, say.
  public var contentType: String
  public var data: Data

  public init(fileName: String, contentType: String, data: Data) {
    self.fileName = fileName
    self.contentType = contentType
    self.data = data
  }

  /// The content type of a file Raon attaches, by its extension.
  public static func contentType(forExtension ext: String) -> String {
    switch ext.lowercased() {
    case "pdf": "application/pdf"
    case "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    case "html": "text/html; charset=utf-8"
    case "json": "application/json"
    case "csv": "text/csv; charset=utf-8"
    case "md": "text/markdown; charset=utf-8"
    default: "application/octet-stream"
    }
  }
}
