import Foundation
import Testing
import TestSupport

@testable import RaonIngest

/// Issue 37: a UTF-8 byte-order mark and header followed by CP949 rows was read with exit 0
/// and no warning, every row garbled. A file in two encodings is now refused in one line
/// naming the first line of the other; a stray bad byte still is not a second encoding.
@Suite struct MixedEncodingTests {
  /// The sample's bytes (CP949) and its lines (split at LF, kept with their LF).
  static let sample: [UInt8] = (try? Array(Data(contentsOf: Fixtures.sampleCSV))) ?? []
  static var cp949Lines: [[UInt8]] {
    sample.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
  }
  /// The same lines in UTF-8 (decoded by Raon's decoder from the sample).
  static var utf8Lines: [[UInt8]] {
    (try? CatalogTextDecoder.decode(sample, source: "s"))?.utf8
      .split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) + [0x0A] } ?? []
  }
  static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

  static func refusal(_ bytes: [UInt8]) -> TextDecodingError? {
    do {
      _ = try CatalogTextDecoder.decode(bytes, source: "mixed.csv")
      return nil
    } catch {
      return error as? TextDecodingError
    }
  }

  @Test func aByteOrderMarkAndUTF8HeaderBeforeCP949RowsIsRefusedAtLine2() throws {
    let bytes = Self.bom + Self.utf8Lines[0] + Self.cp949Lines[1..<40].joined()
    let error = try #require(Self.refusal(bytes))
    #expect(error == .mixedEncodings(
      source: "mixed.csv", line: 2, lineEncoding: "CP949", fileEncoding: "UTF-8 (it starts with a UTF-8 byte-order mark)"))
    #expect(error.description.hasPrefix("mixed.csv:2: this line is CP949") && !error.description.contains("\n"))
  }

  @Test func aUTF8HeaderWithoutAMarkBeforeCP949RowsIsRefusedAtLine2() throws {
    let bytes = Self.utf8Lines[0] + Self.cp949Lines[1..<40].joined()
    let error = try #require(Self.refusal(bytes))
    guard case .mixedEncodings(_, let line, let encoding, _) = error else { Issue.record("\(error)"); return }
    #expect(line == 2 && encoding == "CP949")
  }

  @Test func utf8RowsAfterCP949OnesAreRefusedAtTheFirstOfThem() throws {
    let cp949 = Self.cp949Lines[0..<30].joined()
    let utf8 = Self.utf8Lines[30..<60].joined()
    let error = try #require(Self.refusal(Array(cp949) + Array(utf8)))
    guard case .mixedEncodings(_, let line, let encoding, let file) = error else { Issue.record("\(error)"); return }
    #expect(encoding == "UTF-8" && file == "CP949")
    // The first UTF-8 line that CP949 cannot read; the sample's first 30 lines hold rows
    // without line breaks inside them, so it is line 31 unless that line is all ASCII.
    let lines = Self.utf8Lines
    var firstNonASCII = 30
    while firstNonASCII < 60, !lines[firstNonASCII].contains(where: { $0 >= 0x80 }) { firstNonASCII += 1 }
    #expect(line == firstNonASCII + 1, "\(error)")
  }

  /// Not a second encoding: the sample itself (one invalid sequence inside a URL), a UTF-8
  /// file with a byte-order mark and one damaged byte, and one Hangul syllable's worth of
  /// CP949 in a UTF-8 file.
  @Test func aStrayBadByteIsRepairedNotRefused() throws {
    let sample = try CatalogTextDecoder.decode(Self.sample, source: "sample.csv")
    #expect(sample.encoding == .cp949 && sample.replacementOffsets.count == 1)
    // A stray lead byte before each of 30 Korean lines (UTF-8 read from there on can
    // pass as CP949, as Hanja): repaired, each one replaced.
    var damaged = Self.bom + Self.utf8Lines[0]
    for line in Self.utf8Lines[1..<31] { damaged += [0xB0] + line }
    let repaired = try CatalogTextDecoder.decode(damaged, source: "damaged.csv")
    #expect(repaired.encoding == .utf8WithBOM && repaired.replacementOffsets.count == 30)
    let oneSyllable = Self.bom + Self.utf8Lines[0] + Array("x,\u{B0A1}\n".utf8) + [0xB0, 0xA1, 0x0A]
    #expect(Self.refusal(oneSyllable) == nil)
  }

  @Test func cp949LinesAreRecognisedByTheirDoubleBytes() {
    func reads(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer(MixedEncodingCheck.readsAsCP949) }
    #expect(reads(Array(Self.cp949Lines[1])))
    #expect(!reads(Array(Self.utf8Lines[1])))  // UTF-8 Hangul is not CP949
    #expect(!reads([0x41, 0xB0, 0xA1, 0x42]))  // one character is not a line of CP949
    #expect(!reads([0xB0, 0xA1, 0xB0]))  // cut
  }
}
