import Foundation
import RaonCore
import RaonDocument
import RaonMail

/// A list's message in parts when its files together are over `max_message_bytes`: at
/// today's 20,000 programs the city's PDF and workbook come to about 14 MB in base64, over
/// the 10,240,000 bytes most servers take (Postfix's default). Korean offices send such
/// files as "(1/2)", "(2/2)"; so does Raon — each part carries page 1, the list of every
/// file with the message that carries it, and as many files, in order, as fit.
extension WeeklyMail {
  /// One message of a list, with the bytes the server gets.
  struct Part {
    var message: MailMessage
    var bytes: Data
  }

  /// The message of a list, whole when it fits under `cap`, else in parts that each fit.
  /// Throws when one file alone, with page 1, is over `cap`: nothing can carry it.
  static func parts(
    summary: WeeklySummary, subject: String, to recipients: [MailAddress], files: [MailAttachment], messageID: String,
    from: Mailbox, date: Date, language: ReportLanguage, cap: Int
  ) throws -> [Part] {
    func render(_ index: Int, of groups: [[Int]]) -> Part {
      let message = partMessage(
        index: index, of: groups, summary: summary, subject: subject, to: recipients, files: files,
        messageID: messageID, from: from, date: date, language: language, cap: cap)
      return Part(message: message, bytes: MIMEWriter.render(message))
    }
    let whole = render(0, of: [Array(files.indices)])
    if whole.bytes.count <= cap { return [whole] }
    // Files in order, as many to a part as fit. A part is measured as it will be sent but
    // for its number: a one-digit count is assumed, and checked once the parts are known.
    var groups: [[Int]] = []
    var current: [Int] = []
    for index in files.indices {
      if render(groups.count, of: groups + [current + [index], []]).bytes.count <= cap {
        current.append(index)
        continue
      }
      if current.isEmpty { throw tooBig(files[index], cap: cap) }
      groups.append(current)
      current = [index]
      if render(groups.count, of: groups + [current, []]).bytes.count > cap { throw tooBig(files[index], cap: cap) }
    }
    if !current.isEmpty { groups.append(current) }
    let parts = groups.indices.map { render($0, of: groups) }
    if let over = parts.first(where: { $0.bytes.count > cap }) {
      throw WeeklyError.mail(
        "a part of the message \(over.message.subject) would be \(WeeklyMailBody.size(over.bytes.count)), over "
          + "max_message_bytes (\(WeeklyMailBody.size(cap))) — nothing was sent and the deliveries stay pending; "
          + "raise [mail] max_message_bytes")
    }
    return parts
  }

  private static func tooBig(_ file: MailAttachment, cap: Int) -> WeeklyError {
    .mail(
      "\(file.fileName) (\(WeeklyMailBody.size(file.data.count))) alone makes a message over max_message_bytes "
        + "(\(WeeklyMailBody.size(cap))) — nothing was sent and the deliveries stay pending; attach fewer formats "
        + "([weekly] formats) or raise [mail] max_message_bytes")
  }

  /// Part `index` of `groups` (the indices of `files` each part carries); the whole message
  /// when there is one group, exactly as ``message(summary:subject:to:files:messageID:from:date:language:)``.
  private static func partMessage(
    index: Int, of groups: [[Int]], summary: WeeklySummary, subject: String, to recipients: [MailAddress],
    files: [MailAttachment], messageID: String, from: Mailbox, date: Date, language: ReportLanguage, cap: Int
  ) -> MailMessage {
    let count = max(groups.count, 1)
    guard count > 1 else {
      return message(
        summary: summary, subject: subject, to: recipients, files: files, messageID: messageID, from: from, date: date,
        language: language)
    }
    let ko = language == .ko
    let listed = files.indices.map { file in
      let carrier = groups.firstIndex { $0.contains(file) } ?? index
      let carriedIn =
        carrier == index
        ? (ko ? "이 메일" : "in this message")
        : (ko ? "\(carrier + 1)/\(count) 메일" : "in message \(carrier + 1)/\(count)")
      return WeeklyMailBody.Listed(fileName: files[file].fileName, bytes: files[file].data.count, carriedIn: carriedIn)
    }
    let limit = WeeklyMailBody.size(cap)
    let note =
      ko
      ? "메일 용량 제한(\(limit))으로 \(count)통에 나누어 보냅니다. 이 메일은 \(index + 1)/\(count)입니다."
      : "Sent as \(count) messages for the size limit (\(limit)); this is \(index + 1)/\(count)."
    let footer = footer(language, from: from)
    return MailMessage(
      from: from, to: recipients, subject: "\(subject) (\(index + 1)/\(count))", date: date,
      messageID: partID(messageID, index + 1, of: count),
      text: WeeklyMailBody.text(summary, attachments: listed, partNote: note, footer: footer),
      html: WeeklyMailBody.html(summary, attachments: listed, partNote: note, footer: footer),
      attachments: (index < groups.count ? groups[index] : []).map { files[$0] },
      extraHeaders: [("Auto-Submitted", "auto-generated")])
  }

  /// `raon.20250818.city.1a2b3c4d5e6f.p1of2@example.go.kr`: the parts of one message.
  static func partID(_ messageID: String, _ part: Int, of count: Int) -> String {
    guard let at = messageID.lastIndex(of: "@") else { return "\(messageID).p\(part)of\(count)" }
    return "\(messageID[..<at]).p\(part)of\(count)\(messageID[at...])"
  }

  /// A part's id without the run of a resend (`.r12`): what it carries, whichever run sent it.
  /// A delivery planned by `--resend` and finished by a later run keeps the parts it got.
  static func content(ofID id: String) -> String {
    id.split(separator: ".", omittingEmptySubsequences: false)
      .filter { !($0.count > 1 && $0.first == "r" && $0.dropFirst().allSatisfy(\.isNumber)) }
      .joined(separator: ".")
  }
}
