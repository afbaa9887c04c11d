// libFuzzer target: a raon.toml → the grammar check → TOMLKit → every string of every
// table (the [mail], [weekly], [document] values, the lists of addresses, [mail.districts])
// — and the raw text itself — through the parsers of the mail settings: MailAddress,
// Mailbox (a sender with a display name), SMTPServer's URL check, the password file's first
// line; then the From and Subject headers written from them. The invariants: a parser says
// why exactly when it refuses; an accepted address holds nothing a header or an SMTP command
// could be bent with; a header written from any text is one header (continuation lines
// begin with a space, no CR or LF inside a line, ASCII only, no line over 998 bytes); an
// accepted server URL has a port from 1 to 65535 or none; a first line holds no CR or LF.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else { return 0 }
  check(text)
  guard (try? TOMLSyntaxCheck.keyLines(text)) != nil, let table = try? TOMLTable(string: text) else { return 0 }
  for value in strings(in: table) { check(value) }
  return 0
}

func strings(in table: TOMLTable) -> [String] {
  var out: [String] = []
  for (key, value) in table {
    out.append(key)
    out += strings(in: value)
  }
  return out
}

func strings(in value: TOMLValueConvertible) -> [String] {
  if let text = value.string { return [text] }
  if let table = value.table { return strings(in: table) }
  if let array = value.array { return array.flatMap { strings(in: $0) } }
  return []
}

func check(_ value: String) {
  let address = MailAddress(value)
  precondition((address == nil) == (MailAddress.problem(in: value) != nil), "problem(in:) disagrees for \(value.debugDescription)")
  if let address {
    precondition(address.text.unicodeScalars.allSatisfy { $0.value > 32 && $0.value < 127 }, "\(value.debugDescription)")
    precondition(!address.text.contains { "<>,;:\"()[]\\".contains($0) }, "\(value.debugDescription)")
    let parts = address.text.split(separator: "@", omittingEmptySubsequences: false)
    precondition(parts.count == 2 && !parts[0].hasPrefix(".") && !parts[0].hasSuffix(".") && !parts[0].contains(".."))
    let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
    precondition(labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") })
  }
  if let mailbox = Mailbox(value) {
    precondition(Mailbox.problem(in: value) == nil)
    checkHeader(HeaderEncoding.mailboxHeader("From", mailbox), name: "From", longest: mailbox.address.text.utf8.count + 8)
    precondition(Mailbox(mailbox.address.text)?.address == mailbox.address)
  } else {
    precondition(Mailbox.problem(in: value) != nil, "no reason given for \(value.debugDescription)")
  }
  checkHeader(HeaderEncoding.header("Subject", encoding: value), name: "Subject", longest: 78)
  if let server = try? SMTPServer(url: value) {
    precondition(server.url.port.map { (1...65_535).contains($0) } ?? true, "\(value.debugDescription)")
    precondition(value.unicodeScalars.allSatisfy { $0.value > 32 && $0.value < 127 })
  }
  let first = MailPassword.firstLine(of: value)
  precondition(!first.utf8.contains(10) && !first.utf8.contains(13))
}

/// One header: `Name: …`, continuation lines beginning with a space, ASCII, no line longer
/// than 78 but one holding a long address (`From: ` and it, or ` <it>` alone: `longest`),
/// none over 998.
func checkHeader(_ header: String, name: String, longest: Int) {
  let lines = header.components(separatedBy: "\r\n")
  precondition(lines[0].hasPrefix("\(name): "), "\(header.debugDescription)")
  for line in lines.dropFirst() { precondition(line.hasPrefix(" "), "\(header.debugDescription)") }
  for line in lines {
    precondition(!line.contains("\r") && !line.contains("\n") && line.unicodeScalars.allSatisfy(\.isASCII))
    precondition(line.utf8.count <= min(998, max(78, longest)), "\(line.utf8.count): \(line)")
  }
}
