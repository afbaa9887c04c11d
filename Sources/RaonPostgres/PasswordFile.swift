import Foundation

/// The PostgreSQL password file (`PGPASSFILE`, default `~/.pgpass`), read as libpq reads it:
/// lines `host:port:database:user:password`, `*` matching anything, `\:` and `\\` escaped,
/// `#` starting a comment; the first matching line wins. As with libpq, a file that its
/// group or others can read is ignored.
struct PasswordFile {
  let lines: [[String]]

  init?(environment: [String: String]) {
    let path: String
    if let file = environment["PGPASSFILE"], !file.isEmpty {
      path = file
    } else if let home = environment["HOME"], !home.isEmpty {
      path = home + "/.pgpass"
    } else {
      return nil
    }
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 == 0,
      let text = try? String(contentsOfFile: path, encoding: .utf8)
    else { return nil }
    lines = text.split(whereSeparator: \.isNewline).compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = Self.fields(of: Substring(line))
      return fields.count == 5 ? fields : nil
    }
  }

  /// The password of the first line matching the address, if any.
  func password(host: String, port: Int, database: String, user: String) -> String? {
    let wanted = [host, String(port), database, user]
    for line in lines {
      let matches = zip(line.prefix(4), wanted).allSatisfy { pattern, value in
        pattern == "*" || pattern == value
      }
      if matches { return line[4] }
    }
    return nil
  }

  /// Splits a line at unescaped colons and removes the escapes.
  private static func fields(of line: Substring) -> [String] {
    var fields: [String] = []
    var current = ""
    var escaped = false
    for character in line {
      if escaped {
        current.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == ":" && fields.count < 4 {
        fields.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    fields.append(current)
    return fields
  }
}
