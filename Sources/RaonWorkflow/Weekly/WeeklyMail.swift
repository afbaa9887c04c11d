import Foundation
import RaonCore
import RaonDocument
import RaonErrors
import RaonExport
import RaonMail
import RaonStore

/// How a week's message to one recipient list looks: its subject in official form, the
/// files it carries under Korean names, its Message-ID, and the message itself built from
/// what the ledger keeps (page 1) and the published files. Pure but for reading the files.
enum WeeklyMail {
  /// `[서울시 문화행사 주간 현황] 2025. 8. 18.(월) ~ 8. 24.(일) — 종로구` (the city's without the
  /// district). Plain spaces: a subject line is not printed.
  static func subject(week: ISOWeek, list: String, language: ReportLanguage, profile: CatalogProfile = .seoul) -> String {
    let L = ReportLabels(language, profile: profile)
    let period = OfficialDates.period(week.start, week.end, language).replacingOccurrences(of: "\u{00A0}", with: " ")
    return "[\(L.reportTitle)] \(period)" + (list == WeeklyList.city ? "" : " — \(list)")
  }

  /// The formats a message carries (one file each), in the order they are attached.
  static let attachedFormats: [ReportFormat] = [.pdf, .xlsx, .html, .json]

  /// A file to attach: where it is under `out`, and the name a person sees.
  struct Attachment: Codable, Equatable {
    var path: String
    var name: String
  }

  /// What `list`'s message of `week` carries from the report folder `<week>/` under `out`:
  /// `서울시_문화행사_주간현황_2025-08-18_종로구.pdf`, and the workbook beside it.
  static func attachments(
    week: ISOWeek, list: String, formats: [ReportFormat], profile: CatalogProfile = .seoul
  ) -> [Attachment] {
    let folder = list == WeeklyList.city ? week.description : "\(week.description)/\(profile.words.files.packFolder)/\(list)"
    let stem = "\(profile.words.fileStem)_\(week.start)" + (list == WeeklyList.city ? "" : "_\(list)")
    return attachedFormats.filter(formats.contains).map {
      Attachment(path: "\(folder)/report.\($0.rawValue)", name: "\(stem).\($0.rawValue)")
    }
  }

  /// The files read, and their SHA-256 together (names and bytes): what the ledger calls the
  /// document a recipient got.
  static func read(_ attachments: [Attachment], under out: URL) throws -> (files: [MailAttachment], hash: String) {
    var files: [MailAttachment] = []
    var together = SHA256()
    for attachment in attachments {
      let url = out.appendingPathComponent(attachment.path)
      guard let data = FileManager.default.contents(atPath: url.path) else {
        throw WorkflowError.inputNotFound(path: url.path)
      }
      var one = SHA256()
      one.update(data)
      together.update("\(attachment.name)\n\(SHA256.hexString(one.finalize()))\n")
      let ext = (attachment.name as NSString).pathExtension
      files.append(MailAttachment(fileName: attachment.name, contentType: MailAttachment.contentType(forExtension: ext), data: data))
    }
    return (files, SHA256.hexString(together.finalize()))
  }

  /// `raon.20250818.d23.1a2b3c4d5e6f@example.go.kr`: the same message (week, list, files)
  /// has the same id wherever it goes; a resend (`run`) is a message of its own.
  static func messageID(week: ISOWeek, list: String, documentHash: String, resendRun: Int64?, from: Mailbox) -> String {
    let day = week.start.description.replacingOccurrences(of: "-", with: "")
    let token: String
    if list == WeeklyList.city {
      token = "city"
    } else if let index = District.all.firstIndex(of: list) {
      token = "d" + (index < 9 ? "0" : "") + String(index + 1)
    } else {
      token = "x" + SHA256.hex(list).prefix(8)
    }
    return "raon.\(day).\(token).\(documentHash.prefix(12))" + (resendRun.map { ".r\($0)" } ?? "") + "@\(from.domain)"
  }

  /// The signature at the foot of every message, one line each: the office (`[document]`,
  /// as page 1 names it; else the sender's display name, when `from` has one), then a short
  /// note that the message comes every week by itself and where to ask.
  static func footer(_ language: ReportLanguage, from: Mailbox, office: [String] = []) -> String {
    let lines = office.isEmpty ? [from.displayName].compactMap { $0 } : office
    return (lines + [ReportLabels(language).automaticMailNote(replyTo: "\(from.address)")]).joined(separator: "\n")
  }

  /// The message of one list: page 1 in both bodies, the files attached.
  static func message(
    summary: WeeklySummary, subject: String, to recipients: [MailAddress], files: [MailAttachment], messageID: String,
    from: Mailbox, date: Date, language: ReportLanguage
  ) -> MailMessage {
    let listed = files.map { WeeklyMailBody.Listed(fileName: $0.fileName, bytes: $0.data.count) }
    let footer = footer(language, from: from, office: summary.office ?? [])
    return MailMessage(
      from: from, to: recipients, subject: subject, date: date, messageID: messageID,
      text: WeeklyMailBody.text(summary, attachments: listed, footer: footer),
      html: WeeklyMailBody.html(summary, attachments: listed, footer: footer),
      attachments: files, extraHeaders: [("Auto-Submitted", "auto-generated")])
  }
}
