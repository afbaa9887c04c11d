import Foundation
import RaonCore
import Testing
import TestSupport

@testable import RaonIngest

@Suite struct CatalogTextDecoderTests {
  @Test func sampleDecodesLikePythonsCP949WithReplace() throws {
    let data = try Data(contentsOf: Fixtures.sampleCSV)
    let text = try CatalogTextDecoder.decode(data, source: "sample.csv")
    #expect(text.encoding == .cp949)
    // Python: t = open(F, "rb").read().decode("cp949", errors="replace")
    //   hashlib.sha256(t.encode("utf-8")).hexdigest(), len(t.encode("utf-8"))
    var hasher = RaonCore.SHA256()
    hasher.update(text.utf8)
    #expect(
      RaonCore.SHA256.hexString(hasher.finalize())
        == "bb36eaa03cceba5addd78b8868266e04b59c208383364842f418553d07c66337")
    #expect(text.utf8.count == 3_405_181)
    // Exactly one invalid sequence (byte 0x82 before "&act=" at input offset 1635745).
    #expect(text.replacementOffsets.count == 1)
    if let offset = text.replacementOffsets.first {
      #expect(Array(text.utf8[offset..<(offset + 8)]) == Array("\u{FFFD}&act=".utf8))
    }
  }

  @Test func validUTF8IsKeptAsIs() throws {
    let bytes = Array("분류,자치구\n클래식,강남구\n".utf8)
    let text = try CatalogTextDecoder.decode(bytes, source: "u.csv")
    #expect(text.encoding == .utf8)
    #expect(text.utf8 == bytes)
    #expect(text.replacementOffsets.isEmpty)
  }

  @Test func byteOrderMarkIsStripped() throws {
    let body = Array("분류\n".utf8)
    let text = try CatalogTextDecoder.decode([0xEF, 0xBB, 0xBF] + body, source: "b.csv")
    #expect(text.encoding == .utf8WithBOM)
    #expect(text.utf8 == body)
  }

  @Test func invalidUTF8AfterBOMIsRepairedNotReadAsCP949() throws {
    let text = try CatalogTextDecoder.decode(
      [0xEF, 0xBB, 0xBF, 0x61, 0xFF, 0x62], source: "b.csv")
    #expect(text.encoding == .utf8WithBOM)
    #expect(text.string == "a\u{FFFD}b")
    #expect(text.replacementOffsets == [1])
  }

  @Test func cp949ExtendedSyllablesAreNotDropped() throws {
    // "똠방각하" in CP949: 똠 = 0x8C 0x63 is one of CP949's extra syllables that EUC-KR
    // lacks; 방각하 = B9 E6 B0 A2 C7 CF (Python: "똠방각하".encode("cp949").hex()).
    let text = try CatalogTextDecoder.decode(
      [0x8C, 0x63, 0xB9, 0xE6, 0xB0, 0xA2, 0xC7, 0xCF], source: "k.csv")
    #expect(text.encoding == .cp949)
    #expect(text.string == "똠방각하")
  }

  @Test func invalidCP949ByteIsReplacedAndTheNextByteKept() throws {
    // Python: b"\xb0\xa1\x82&\xb0\xa1\xb0".decode("cp949", errors="replace")
    //   == "가\ufffd&가\ufffd"  (the last, incomplete lead byte is replaced too)
    let text = try CatalogTextDecoder.decode(
      [0xB0, 0xA1, 0x82, 0x26, 0xB0, 0xA1, 0xB0], source: "k.csv")
    #expect(text.string == "가\u{FFFD}&가\u{FFFD}")
    #expect(text.replacementOffsets == [3, 10])
  }

  @Test func garbageBytesNeverCrash() throws {
    var generator = SplitMix64(seed: 42)
    for length in [1, 2, 3, 17, 1000, 65_537] {
      let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      let text = try CatalogTextDecoder.decode(bytes, source: "g.bin")
      // Whatever came in, what comes out is valid UTF-8.
      #expect(String(validating: text.utf8, as: UTF8.self) != nil)
    }
  }
}
