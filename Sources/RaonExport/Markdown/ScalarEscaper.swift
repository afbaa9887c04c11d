/// Rewrites text scalar by scalar: a scalar the table names becomes the table's text; any
/// other is kept, unless `other` gives a replacement for it ("" drops it). The one loop
/// behind the writers' escapings (XML entities, a link target's percent-encoding).
struct ScalarEscaper: Sendable {
  private let table: [Unicode.Scalar: String]
  private let other: @Sendable (Unicode.Scalar) -> String?

  init(_ table: [Unicode.Scalar: String], other: @escaping @Sendable (Unicode.Scalar) -> String? = { _ in nil }) {
    self.table = table
    self.other = other
  }

  func callAsFunction(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if let replacement = table[scalar] ?? other(scalar) {
        out += replacement
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
