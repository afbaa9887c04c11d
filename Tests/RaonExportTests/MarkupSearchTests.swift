import Foundation
import Testing

@testable import RaonDocument
@testable import RaonExport

/// The byte search the HTML writer finds its markup with agrees with Foundation's literal
/// search on text like the page's: Korean, ASCII markup, a needle at either end, repeated,
/// overlapping or missing.
@Suite struct MarkupSearchTests {
  static let pieces = ["<h2>", "</h2>", "<tr>", "<td", "가", "나다", "é", "e\u{301}", " ", "<", ">", "h2", "🎭", "\n"]
  static let needles = ["<h2>", "</h2>", "<tr>", "<td", "<hr>", "<", "h2>", "<<", "e\u{301}"]

  /// Texts made by a fixed-seed generator from the pieces above.
  static var texts: [String] {
    var state: UInt64 = 2024
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33)
    }
    return (0..<400).map { _ in (0..<(next() % 30)).map { _ in pieces[next() % pieces.count] }.joined() }
  }

  @Test func theFirstPlaceIsFoundationsLiteralOne() {
    for text in Self.texts {
      for needle in Self.needles {
        #expect(text.firstRange(ofMarkup: needle) == text.range(of: needle, options: .literal), "\(text) \(needle)")
        let slice = text.dropFirst(text.count / 3)
        #expect(slice.firstRange(ofMarkup: needle) == slice.range(of: needle, options: .literal), "\(slice) \(needle)")
      }
    }
  }

  @Test func splittingAndReplacingAreFoundations() {
    for text in Self.texts {
      for needle in Self.needles where needle.unicodeScalars.count == needle.count {
        #expect(text.components(separatedByMarkup: needle).map(String.init) == text.components(separatedBy: needle))
        #expect(
          text.replacing(markup: needle, with: "[x]")
            == text.replacingOccurrences(of: needle, with: "[x]", options: .literal))
      }
    }
  }
}
