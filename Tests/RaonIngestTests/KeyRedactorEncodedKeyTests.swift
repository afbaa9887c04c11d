import Foundation
import Testing

@testable import RaonIngest

/// The public data portal hands out its keys twice, as they are and percent-encoded
/// ("Encoding" key); the encoded one travels in the query string as it is. Whichever form
/// a user sets, every form is redacted (issue 36).
@Suite struct KeyRedactorEncodedKeyTests {
  static let decoded = "Ab+cD/ef12==Zz"
  static let encoded = "Ab%2BcD%2Fef12%3D%3DZz"

  @Test(arguments: [decoded, encoded])
  func everyFormIsRedactedWhicheverFormWasGiven(given: String) {
    let redactor = KeyRedactor(key: given)
    for form in [Self.decoded, Self.encoded, "ab%2bcd%2fef12%3d%3dzz", "Ab cD/ef12==Zz", "Ab%252BcD"] {
      let text = "GET http://h/op?serviceKey=\(form)&pageNo=1 failed"
      let redacted = redactor.redact(text)
      if form == "Ab%252BcD" {
        #expect(redacted == text)  // not the key: a double escape of a part of it
      } else {
        #expect(!redacted.contains(form), "\(form) survives in \(redacted)")
        #expect(redacted.contains("serviceKey=****&pageNo=1"), "\(redacted)")
      }
    }
  }

  /// Regression: before the key's decoded form was matched, a key given encoded was shown
  /// as it is in a URL (the text is decoded before matching; the key was not).
  @Test func anEncodedKeyInAURLIsRedacted() {
    #expect(KeyRedactor(key: Self.encoded).redact("?serviceKey=\(Self.encoded)&x") == "?serviceKey=****&x")
  }
}
