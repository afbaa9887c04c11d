import Foundation
import RaonCore
import RaonDocument
import RaonErrors
import RaonExport
import RaonMail
import TOMLKit

// The weekly service's sections of `raon.toml`, `[weekly]` and `[mail]` (with
// `[mail.districts]`): read here, each value checked and typed, every mistake naming the
// file, the line and the key (exit 78). The other sections are read as before.

extension RaonConfig {
  /// The sections read here, not as plain keys.
  static func serviceSections(_ channels: ChannelRegistry) -> Set<String> {
    Set(["weekly", "mail", "document"] + channels.kinds.map { $0.section })
  }

  /// `[SECTION.NAME]` sections of one channel kind, each a recipient.
  private static func parseChannelSections(
    _ kind: any ChannelKind.Type, _ table: TOMLTable, lines: ConfigLines, path: String, into config: inout RaonConfig
  ) throws {
    guard let value = table[kind.section] else { return }
    let example = "[\(kind.section).NAME] sections, like [\(kind.section).\(kind.exampleName)] with \(kind.sectionKeys)"
    guard let sections = value.table, !sections.inline else {
      throw WorkflowError.config(
        path: path, line: lines.line(of: kind.section, in: nil), message: "'\(kind.section)' must be \(example)")
    }
    for (name, value) in sections {
      guard let section = value.table else {
        throw WorkflowError.config(
          path: path, line: lines.line(of: name, in: kind.section),
          message: "'\(name)' in [\(kind.section)] must be a [\(kind.section).\(name)] section with \(kind.sectionKeys)")
      }
      let reader = SectionReader(section, name: "\(kind.section).\(name)", lines: lines, path: path)
      config.channels.recipients.append(
        try kind.read(
          ChannelSection(
            reader: reader, name: name, packs: config.weekly?.districts, packsGiven: config.weekly?.districtsGiven ?? false)))
    }
  }

  /// Reads `[weekly]`, `[document]`, `[mail]` and every `channels` kind's sections from the
  /// parsed file into `config`.
  static func parseServiceSections(
    _ table: TOMLTable, lines: ConfigLines, path: String, channels: ChannelRegistry, into config: inout RaonConfig
  ) throws {
    if let weekly = table["weekly"] {
      guard let section = weekly.table else {
        throw WorkflowError.config(path: path, line: lines.line(of: "weekly", in: nil), message: "'weekly' must be a [weekly] section")
      }
      config.weekly = try SectionReader(section, name: "weekly", lines: lines, path: path).weekly()
    }
    if let document = table["document"] {
      guard let section = document.table, !section.inline else {
        throw WorkflowError.config(
          path: path, line: lines.line(of: "document", in: nil), message: "'document' must be a [document] section")
      }
      config.document = try SectionReader(section, name: "document", lines: lines, path: path).document()
    }
    if let mail = table["mail"] {
      guard let section = mail.table else {
        throw WorkflowError.config(path: path, line: lines.line(of: "mail", in: nil), message: "'mail' must be a [mail] section")
      }
      config.mail = try SectionReader(section, name: "mail", lines: lines, path: path).mail(
        districts: config.weekly?.districts, given: config.weekly?.districtsGiven ?? false)
    }
    for kind in channels.kinds {
      try parseChannelSections(kind, table, lines: lines, path: path, into: &config)
    }
    config.channels.recipients.sort { $0.section < $1.section }
  }
}

/// Reads one section's keys, naming the line of each mistake.
struct SectionReader {
  let table: TOMLTable
  let name: String
  let lines: ConfigLines
  let path: String

  init(_ table: TOMLTable, name: String, lines: ConfigLines, path: String) {
    self.table = table
    self.name = name
    self.lines = lines
    self.path = path
  }

  func fail(_ key: String, _ message: String, section: String? = nil) -> WorkflowError {
    WorkflowError.config(path: path, line: lines.line(of: key, in: section ?? name), message: message)
  }

  func checkKeys(_ known: [String]) throws {
    for (key, _) in table where !known.contains(key) {
      throw fail(key, "unknown key '\(key)' in [\(name)] (known: \(known.joined(separator: ", ")))")
    }
  }

  func string(_ key: String) throws -> String? {
    guard let value = table[key] else { return nil }
    guard let text = value.string else { throw fail(key, "'\(key)' must be a string, like \(key) = \"…\"") }
    return text
  }

  func nonEmpty(_ key: String) throws -> String? {
    guard let text = try string(key) else { return nil }
    guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw fail(key, "'\(key)' is empty — give a value, or remove the line")
    }
    return text
  }

  /// A whole number of seconds, or `"90s"`, `"30m"`, `"2h"`, `"1h30m"`, `"8d"`, `"0"`.
  func seconds(_ key: String, _ range: ClosedRange<Int>, example: String = "like \"30m\" or \"2h\" (or seconds)") throws -> Int? {
    guard let value = table[key] else { return nil }
    let seconds = value.int ?? value.string.flatMap(Self.duration)
    guard let seconds, range.contains(seconds) else {
      let upper = range.upperBound % 86_400 == 0 && range.upperBound >= 2 * 86_400 ? "\(range.upperBound / 86_400) d" : "\(range.upperBound / 3600) h"
      throw fail(key, "'\(key)' must be a time from \(range.lowerBound) s to \(upper), \(example)")
    }
    return seconds
  }

  static func duration(_ text: String) -> Int? {
    // A number alone is seconds ("0": once, as a whole number would be).
    let bare = text.trimmingCharacters(in: .whitespaces)
    if !bare.isEmpty, bare.count < 8, bare.allSatisfy({ $0.isASCII && $0.isNumber }) { return Int(bare) }
    var total = 0
    var number = ""
    var any = false
    for character in text.lowercased() where character != " " {
      if character.isASCII, character.isNumber {
        number.append(character)
        continue
      }
      guard let n = Int(number), n < 1_000_000 else { return nil }
      switch character {
      case "s": total += n
      case "m": total += n * 60
      case "h": total += n * 3600
      case "d": total += n * 86_400
      default: return nil
      }
      number = ""
      any = true
    }
    guard number.isEmpty, any else { return nil }
    return total
  }

  /// A list of addresses (one address alone is a list of one).
  func addresses(_ key: String, in table: TOMLTable? = nil, section: String? = nil) throws -> [MailAddress]? {
    guard let value = (table ?? self.table)[key] else { return nil }
    let texts: [String]
    if let one = value.string {
      texts = [one]
    } else if let array = value.array, case let strings = array.compactMap(\.string), strings.count == array.count {
      texts = strings
    } else {
      throw fail(key, "'\(key)' must be a list of addresses, like [\"a@example.go.kr\"]", section: section)
    }
    var out: [MailAddress] = []
    for text in texts {
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      guard let address = MailAddress(trimmed) else {
        let why = MailAddress.problem(in: trimmed).map { ": \($0)" } ?? ""
        throw fail(
          key, "'\(text)' in \(key) is not an e-mail address\(why) (write local@domain, one per item)", section: section)
      }
      if !out.contains(address) { out.append(address) }
    }
    return out
  }

  func weekly() throws -> WeeklySettings {
    try checkKeys(WeeklySettings.knownKeys)
    var settings = WeeklySettings()
    if let source = try nonEmpty("source") {
      settings.source = source == "api" ? .api : .folder(source)
    }
    if let value = table["formats"] {
      let items: [String]
      if let text = value.string {
        items = text.split(separator: ",").map(String.init)
      } else if let array = value.array, case let strings = array.compactMap(\.string), strings.count == array.count {
        items = strings
      } else {
        throw fail("formats", "'formats' must be a list like [\"pdf\", \"xlsx\"]")
      }
      guard items.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
        throw fail("formats", "'formats' is empty — list what is written and attached, like [\"pdf\", \"xlsx\"]")
      }
      do {
        settings.formats = try FormatRegistry.standard.parse(items, for: .report)
      } catch {
        throw fail("formats", "formats: \(error)")
      }
    }
    if let value = table["districts"] {
      if let text = value.string {
        guard text.lowercased() == "all" else {
          throw fail("districts", "districts must be \"all\" or a list of district names, like [\"종로구\", \"중구\"]")
        }
      } else if let array = value.array, case let names = array.compactMap(\.string), names.count == array.count {
        var chosen: [String] = []
        for name in names {
          guard let region = PackName.read(name) else {
            throw fail("districts", "'\(name)' in districts is not one of Seoul's 25 districts (nor a 시·도 of the national catalog)")
          }
          if !chosen.contains(region) { chosen.append(region) }
        }
        settings.districts = PackName.ordered(chosen)
        settings.districtsGiven = true
        settings.districtsLine = lines.line(of: "districts", in: name)
      } else {
        throw fail("districts", "districts must be \"all\" or a list of district names, like [\"종로구\", \"중구\"]")
      }
    }
    if let out = try nonEmpty("out") { settings.out = out }
    settings.site = try nonEmpty("site")
    if let seconds = try seconds("retry_for", 0...86_400) { settings.retryFor = seconds }
    if let seconds = try seconds("retry_wait", 1...3_600) { settings.retryWait = seconds }
    settings.lock = try nonEmpty("lock")
    try readChecks(into: &settings)
    return settings
  }

  /// `[document]`: the office page 1 names (``DocumentHead``). Each key optional; a value
  /// is one line of text a page can hold.
  func document() throws -> DocumentHead {
    // A table inside (`[document.team]`) names its own header's line.
    for (key, value) in table {
      if let inner = value.table, !inner.inline {
        throw WorkflowError.config(
          path: path, line: lines.line(ofSection: "\(name).\(key)"),
          message: "unknown key '\(key)' in [\(name)] (known: \(Self.documentKeys.joined(separator: ", ")))")
      }
    }
    try checkKeys(Self.documentKeys)
    func line(_ key: String) throws -> String? {
      guard let text = try nonEmpty(key) else { return nil }
      if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
        throw fail(key, "'\(key)' holds a control character (a line break?) — write it on one line")
      }
      guard text.count <= Self.documentValueLimit else {
        throw fail(key, "'\(key)' is longer than \(Self.documentValueLimit) characters — page 1 gives it part of one line")
      }
      return text
    }
    return DocumentHead(department: try line("department"), officer: try line("officer"), phone: try line("phone"))
  }

  /// The keys of `[document]`.
  static let documentKeys = ["department", "officer", "phone"]
  /// The longest value `[document]` takes (characters).
  static let documentValueLimit = 60

  func mail(districts packs: [String]?, given: Bool = true) throws -> MailSettings {
    try checkKeys(MailSettings.knownKeys)
    guard let server = try nonEmpty("server") else {
      throw WorkflowError.config(
        path: path, line: lines.line(ofSection: "mail"),
        message: "[mail] has no server — add server = \"smtp://mail.example:587\" (or remove [mail] to send nothing)")
    }
    do {
      _ = try SMTPServer(url: server)
    } catch {
      throw fail("server", "server: \(error)")
    }
    guard let fromText = try nonEmpty("from") else {
      throw WorkflowError.config(
        path: path, line: lines.line(ofSection: "mail"), message: "[mail] has no from — add from = \"culture@example.go.kr\"")
    }
    guard let from = Mailbox(fromText) else {
      let why = Mailbox.problem(in: fromText).map { ": \($0)" } ?? ""
      throw fail("from", "from = '\(fromText)' is not a sender\(why) (write local@domain, or Name <local@domain>)")
    }
    var settings = MailSettings(server: server, from: from)
    settings.user = try nonEmpty("user")
    if let user = settings.user, user.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw fail("user", "'user' holds a control character (a line break?) — write the login name alone")
    }
    settings.passwordFile = try nonEmpty("password_file")
    settings.caFile = try nonEmpty("ca_file")
    settings.operators = try addresses("operator") ?? []
    settings.city = try addresses("city") ?? []
    if let value = table["max_message_bytes"] {
      guard let n = value.int, (10_000...1_000_000_000).contains(n) else {
        throw fail("max_message_bytes", "max_message_bytes must be a whole number of bytes from 10000 to 1000000000")
      }
      settings.maxMessageBytes = n
    }
    if let seconds = try seconds("timeout", 1...3_600) { settings.timeout = seconds }
    if let value = table["districts"] {
      guard let lists = value.table else {
        throw fail("districts", "'districts' must be a [mail.districts] section: \"종로구\" = [\"b@example.go.kr\"]")
      }
      for (key, _) in lists {
        let section = "mail.districts"
        guard let district = PackName.read(key) else {
          throw fail(key, "'\(key)' in [mail.districts] is not one of Seoul's 25 districts (nor a 시·도 of the national catalog)", section: section)
        }
        // Unless [weekly] names its packs, every district — or every 시·도 — gets one.
        if let packs, given || District.named(district) != nil, !packs.contains(district) {
          throw fail(key, "[mail.districts] names \(district), which [weekly] districts leaves out — add it there", section: section)
        }
        settings.districtLines[district] = lines.line(of: key, in: section)
        guard settings.districts[district] == nil else {
          throw fail(key, "\(district) is given twice in [mail.districts]", section: section)
        }
        settings.districts[district] = try addresses(key, in: lists, section: section) ?? []
      }
    }
    return settings
  }
}
