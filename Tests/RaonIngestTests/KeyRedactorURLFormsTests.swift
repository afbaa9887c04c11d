import Foundation
import Testing

@testable import RaonIngest

/// The key is redacted in every form a URL may carry it.
@Suite struct KeyRedactorURLFormsTests {
  @Test(arguments: ["abc123", "k3y+/=Zq9", "키-값", "a b%c", "x"])
  func everyFormOfTheKeyIsRedacted(key: String) {
    let redactor = KeyRedactor(key: key)
    let encoded = key.addingPercentEncoding(withAllowedCharacters: KeyRedactor.unreserved) ?? key
    for form in Set([key, encoded, KeyRedactor.lowercasingEscapes(encoded)]) {
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
