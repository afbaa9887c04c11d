import Foundation

/// SVG documents made ready to sit inside an HTML page, several to a page.
enum InlineSVG {
  /// `svg` without its XML prolog (`<?xml …?>`, `<!DOCTYPE …>`, comments before the root),
  /// with every `id` prefixed by `prefix` and every in-document reference to one
  /// (`url(#…)`, `href="#…"`, `xlink:href="#…"`) following, so two charts on one page
  /// never share an id.
  static func embed(_ svg: String, idPrefix prefix: String) -> String {
    var text = Substring(svg)
    if let root = text.firstRange(ofMarkup: "<svg") { text = text[root.lowerBound...] }
    var out = String(text).trimmingCharacters(in: .whitespacesAndNewlines)
    let ids = identifiers(in: out)
    guard !ids.isEmpty else { return out }
    // Longest first, so an id that starts another is never replaced inside it.
    for id in ids.sorted(by: { $0.count > $1.count }) {
      let renamed = prefix + id
      for (old, new) in [
        ("id=\"\(id)\"", "id=\"\(renamed)\""), ("url(#\(id))", "url(#\(renamed))"),
        ("href=\"#\(id)\"", "href=\"#\(renamed)\""),
      ] {
        out = out.replacing(markup: old, with: new)
      }
    }
    return out
  }

  /// The values of the `id="…"` attributes in `svg`.
  static func identifiers(in svg: String) -> Set<String> {
    var ids: Set<String> = []
    var rest = Substring(svg)
    while let start = rest.firstRange(ofMarkup: " id=\"") {
      let after = rest[start.upperBound...]
      guard let end = after.firstIndex(of: "\"") else { break }
      let id = after[..<end]
      if !id.isEmpty { ids.insert(String(id)) }
      rest = after[after.index(after: end)...]
    }
    return ids
  }
}
