import RaonCore
import Testing

@Suite struct SHA256Tests {
  // FIPS 180-2 appendix B vectors (also checked with Python's hashlib).
  @Test func matchesTheStandardTestVectors() {
    #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  @Test func streamingInPiecesGivesTheSameDigestAsOneUpdate() {
    let text = String(repeating: "서울시 문화행사 정보 ", count: 50)
    var pieces = SHA256()
    for part in text.split(separator: " ", omittingEmptySubsequences: false) {
      pieces.update(String(part))
      pieces.update(Array(" ".utf8))
    }
    var whole = SHA256()
    whole.update(text + " ")
    #expect(pieces.finalize() == whole.finalize())
  }

  @Test func millionAsIsMatchesTheLongVector() {
    var h = SHA256()
    h.update(String(repeating: "a", count: 1_000_000))
    #expect(
      SHA256.hexString(h.finalize())
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }
}
