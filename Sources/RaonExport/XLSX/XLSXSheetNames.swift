import Foundation

/// Turns proposed sheet names into names Excel accepts, each used once.
///
/// Excel refuses names longer than 31 characters (UTF-16 units), names containing any of
/// `[ ] : * ? / \`, names starting or ending with an apostrophe, the reserved name
/// `History`, and names equal to another sheet's ignoring case.
struct XLSXSheetNames {
  static let maxLength = 31
  private var usedKeys: Set<String> = []

  /// A valid form of `proposed`: forbidden characters become `_`, the name is cut to
  /// 31 characters, and ` (2)`, ` (3)`, … is appended when it is already taken.
  mutating func claim(_ proposed: String) -> String {
    let base = Self.sanitize(proposed)
    var candidate = base
    var n = 2
    while usedKeys.contains(Self.key(candidate)) {
      let suffix = " (\(n))"
      candidate = Self.cut(base, toUTF16: Self.maxLength - suffix.utf16.count) + suffix
      n += 1
    }
    usedKeys.insert(Self.key(candidate))
    return candidate
  }

  func contains(_ name: String) -> Bool { usedKeys.contains(Self.key(name)) }

  /// The name with forbidden characters replaced and the length limit applied.
  static func sanitize(_ proposed: String) -> String {
    let forbidden: Set<Character> = ["[", "]", ":", "*", "?", "/", "\\"]
    var name = String(proposed.map { forbidden.contains($0) || $0.isNewline ? "_" : $0 })
    name = name.trimmingApostrophes()
    name = cut(name, toUTF16: maxLength).trimmingApostrophes()
    if name.trimmingCharacters(in: .whitespaces).isEmpty || name.lowercased() == "history" {
      name = "Sheet" + (name.isEmpty ? "" : "_" + name)
    }
    return name
  }

  /// The longest prefix of whole characters that fits in `limit` UTF-16 units.
  static func cut(_ text: String, toUTF16 limit: Int) -> String {
    guard text.utf16.count > limit else { return text }
    var out = ""
    var used = 0
    for ch in text {
      let n = ch.utf16.count
      if used + n > limit { break }
      out.append(ch)
      used += n
    }
    return out
  }

  private static func key(_ name: String) -> String { name.lowercased() }
}

extension String {
  fileprivate func trimmingApostrophes() -> String {
    var s = Substring(self)
    while s.first == "'" { s = s.dropFirst() }
    while s.last == "'" { s = s.dropLast() }
    return String(s)
  }
}
