import Foundation
import Testing

@testable import RaonIngest

/// The key is found however a server echoes it.
@Suite struct KeyRedactorEchoFormsTests {
  static let key = "LeakCanary7Q2w9E4r6T8y0U"
  let redactor = KeyRedactor(key: key)

  @Test(arguments: [
    key + "\u{301}",  // a combining mark after the key (grapheme clusters used to hide it)
    "\u{301}" + key + "\u{20DD}",
    key.uppercased(), key.lowercased(),
    key.unicodeScalars.map { "&#x\(String($0.value, radix: 16));" }.joined(),
    key.unicodeScalars.map { "&#X\(String($0.value, radix: 16, uppercase: true));" }.joined(),
    key.unicodeScalars.map { "&#\($0.value);" }.joined(),
    key.unicodeScalars.map { "%\(String($0.value, radix: 16))" }.joined(),
    key.unicodeScalars.map { "\\u00\(String($0.value, radix: 16))" }.joined(),
    "Leak&#x43;anary%37Q2w9\\u0045" + "4r6T8y0u",
  ])
  func theKeyIsRedactedInEveryForm(echo: String) {
    let text = "error: bad key <\(echo)> at /json/culturalEventInfo"
    let redacted = redactor.redact(text)
    // Compared as scalars: a combining mark joins the mask's last `*` into one Character.
    let scalars = String(redacted.unicodeScalars.filter { $0.properties.generalCategory != .nonspacingMark && $0.properties.generalCategory != .enclosingMark })
    #expect(scalars == "error: bad key <\(KeyRedactor.mask)> at /json/culturalEventInfo", "\(redacted)")
    #expect(!redacted.lowercased().contains(Self.key.lowercased()))
  }

  @Test func textWithoutTheKeyIsUnchanged() {
    for text in ["", "plain", "100% &amp; \\u0041 &#65; %zz", "LeakCanary7Q2w9E4r6T8y0", "키 \u{301}"] {
      #expect(redactor.redact(text) == text)
    }
  }

  @Test func anExcerptIsShortOneLineAndControlFree() {
    let body = "<html>\n\u{1B}[2J\u{07}\u{202E}" + Self.key + String(repeating: " x", count: 500)
    let excerpt = redactor.excerpt(body)
    #expect(excerpt.count <= 121)
    #expect(!excerpt.unicodeScalars.contains { KeyRedactor.isUnsafe($0) })
    #expect(!excerpt.contains(Self.key))
    #expect(excerpt.hasPrefix("<html>"))
  }
}
