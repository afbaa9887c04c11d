import Foundation
import Testing

@testable import RaonIngest

/// The key is redacted in every form a URL may carry it.
@Suite struct KeyRedactorURLFormsTests {
  /// `%2B` → `%2b`: the same escapes with lower-case hex digits, the rest unchanged.
  static func lowercasingEscapes(_ text: String) -> String {
    var out: [UInt8] = []
    var pending = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: "%") {
        pending = 2
        out.append(byte)
      } else if pending > 0 {
        pending -= 1
        out.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
      } else {
        out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  @Test(arguments: ["abc123", "k3y+/=Zq9", "키-값", "a b%c", "x"])
  func everyFormOfTheKeyIsRedacted(key: String) {
    let redactor = KeyRedactor(key: key)
    let encoded = key.addingPercentEncoding(withAllowedCharacters: KeyRedactor.unreserved) ?? key
    for form in Set([key, encoded, Self.lowercasingEscapes(encoded)]) {
      let text = "GET http://h:8088/\(form)/json/culturalEventInfo/1/5/ failed; path /\(form)/"
      let redacted = redactor.redact(text)
      #expect(!redacted.contains(form), "\(form) survives in \(redacted)")
      #expect(redacted.contains(KeyRedactor.mask))
    }
  }

  /// Regression (found by review): `k3y+/=` echoed as `k3y%2b%2f%3d` by a proxy that writes
  /// escapes in lower case was shown unredacted in the HTML-body snippet.
  @Test func lowerCaseEscapesAreRedacted() {
    let redactor = KeyRedactor(key: "k3y+/=")
    #expect(redactor.redact("/k3y%2b%2f%3d/json") == "/****/json")
    #expect(redactor.redact("/k3y%2B%2F%3D/json") == "/****/json")
  }

  @Test func anEmptyKeyRedactsNothing() {
    #expect(KeyRedactor(key: "").redact("http://h/abc") == "http://h/abc")
  }
}
