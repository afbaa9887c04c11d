/// Rewrites text scalar by scalar: the one loop behind the writers' escapings (XML text, a
/// link target's percent-encoding).
///
/// What an ASCII scalar becomes is looked up once, when the escaper is made, into a table
/// indexed by the scalar's value; only a non-ASCII scalar asks the rule as the text is
/// read. (A dictionary lookup and a closure call for every character made the weekly
/// job's Markdown and HTML 9 % slower: links are long ASCII URLs.)
struct ScalarEscaper: Sendable {
  /// What each ASCII scalar becomes, by its value: `nil` keeps it, "" drops it.
  private let ascii: [String?]
  private let rule: @Sendable (Unicode.Scalar) -> String?

  /// - Parameters:
  ///   - replacements: ASCII scalars and what each becomes.
  ///   - rule: What any other scalar becomes (`nil` keeps it, "" drops it).
  init(_ replacements: [Unicode.Scalar: String], otherwise rule: @escaping @Sendable (Unicode.Scalar) -> String?) {
    precondition(replacements.keys.allSatisfy(\.isASCII), "the table holds ASCII scalars only")
    ascii = (0..<128).map { value in
      let scalar = Unicode.Scalar(UInt8(value))
      return replacements[scalar] ?? rule(scalar)
    }
    self.rule = rule
  }

  func callAsFunction(_ text: String) -> String {
    // What is kept goes over in runs, a slice at a time: appending scalar by scalar was a
    // measurable part of the weekly job (bench/PROFILING.md, "Round four, session 6").
    let scalars = text.unicodeScalars
    var out = ""
    var rewritten = false
    var run = scalars.startIndex
    var i = run
    while i < scalars.endIndex {
      let scalar = scalars[i]
      let next = scalars.index(after: i)
      if let replacement = scalar.isASCII ? ascii[Int(scalar.value)] : rule(scalar) {
        if !rewritten { out.reserveCapacity(text.utf8.count + 8) }
        rewritten = true
        out += Substring(scalars[run..<i])
        out += replacement
        run = next
      }
      i = next
    }
    guard rewritten else { return text }
    out += Substring(scalars[run...])
    return out
  }
}
