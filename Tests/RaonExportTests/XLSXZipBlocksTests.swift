import CXlsxDeflate
import Foundation
import RaonCore
import TestSupport
import Testing

/// A part larger than a block (1 MB) is deflated in blocks by the pipeline's workers, each
/// primed with the 32 KB before it (`Sources/CXlsxDeflate/xlsx_zip_pipeline.c`): the ZIP
/// reads back whole (Python's zipfile checks every entry's CRC), each part is its bytes,
/// marked as text as minizip marks it, and about as small as minizip's own deflate.
@Suite("XLSX ZIP blocks", .serialized)
struct XLSXZipBlocksTests {
  typealias Open = @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutableRawPointer?
  typealias Write = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, UInt32) -> Int32
  typealias ClosePart = @convention(c) (UnsafeMutableRawPointer?) -> Int32
  typealias CloseZip = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Int32
  struct NotLoaded: Error { let name: String }

  /// minizip's zip_fileinfo: a tm_zip of six ints (1 January 1980), then three unsigned longs.
  struct PartInfo {
    var date: (Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 1, 0, 1980)
    var dosDate: UInt = 0
    var internalAttributes: UInt = 0
    var externalAttributes: UInt = 0
  }

  static func symbol<F>(_ name: String, as type: F.Type) throws -> F {
    guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { throw NotLoaded(name: name) }
    return unsafeBitCast(address, to: type)
  }

  /// Saves `parts` through libminizip as libxlsxwriter does (16 KB writes, level 2).
  static func save(_ parts: [(String, [UInt8])], to url: URL, pipelined: Bool) throws {
    raon_xlsx_set_pipelined(pipelined ? 1 : 0)
    defer { raon_xlsx_set_pipelined(1) }
    let zip = try #require(try symbol("zipOpen", as: Open.self)(url.path, 0))
    let write = try symbol("zipWriteInFileInZip", as: Write.self)
    let closePart = try symbol("zipCloseFileInZip", as: ClosePart.self)
    for (name, bytes) in parts {
      // As libxlsxwriter opens a part: with its details (the date, the attributes).
      var info = PartInfo()
      #expect(raon_xlsx_open_part(zip, name, &info, nil, 0, nil, 0, nil, 8, 2, 0, -15, 8, 0, nil, 0, 0, 0, 0) == 0)
      var start = 0
      while start < bytes.count {
        let end = min(start + 16_384, bytes.count)
        #expect(bytes[start..<end].withUnsafeBytes { write(zip, $0.baseAddress, UInt32($0.count)) } == 0)
        start = end
      }
      #expect(closePart(zip) == 0)
    }
    #expect(try symbol("zipClose", as: CloseZip.self)(zip, nil) == 0)
  }

  @Test func aPartOfManyBlocksReadsBackWholeAndAsSmall() throws {
    let dir = try Fixtures.temporaryDirectory("raon-xlsx-blocks")
    defer { try? FileManager.default.removeItem(at: dir) }
    // 5.4 MB of sheet-like XML with a long run of one byte across a block's end; random
    // bytes (binary, not text); an empty part and a small one.
    var generator = SplitMix64(seed: 0xB10C)
    var text = "<sheetData>"
    for row in 0..<80_000 {
      text += "<row r=\"\(row)\"><c t=\"inlineStr\"><is><t>공연 \(UInt32.random(in: 0...99_999, using: &generator))</t></is></c></row>"
    }
    text += String(repeating: "x", count: 70_000) + "</sheetData>"
    let noise = (0..<2_500_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let parts: [(String, [UInt8])] = [
      ("xl/worksheets/sheet1.xml", Array(text.utf8)), ("xl/media/noise.bin", noise), ("xl/empty.xml", []),
      ("xl/small.xml", Array("<a/>".utf8)),
    ]
    let before = raon_xlsx_blocks_deflated()
    try Self.save(parts, to: dir.appendingPathComponent("blocks.zip"), pipelined: true)
    // A block per MB begun, and one for the empty part.
    let blocks = parts.reduce(0) { $0 + max(1, ($1.1.count + (1 << 20) - 1) >> 20) }
    #expect(blocks >= 10)
    #expect(raon_xlsx_blocks_deflated() - before >= blocks)
    try Self.save(parts, to: dir.appendingPathComponent("whole.zip"), pipelined: false)
    let check = """
      import sys, zipfile, hashlib
      a, b = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2])
      assert a.testzip() is None
      assert [i.filename for i in a.infolist()] == [i.filename for i in b.infolist()]
      for x, y in zip(a.infolist(), b.infolist()):
          assert a.read(x) == b.read(y), x.filename
          assert (x.CRC, x.file_size, x.internal_attr) == (y.CRC, y.file_size, y.internal_attr), x.filename
      big_a, big_b = a.infolist()[0], b.infolist()[0]
      print(hashlib.sha256(a.read(big_a)).hexdigest(), big_a.internal_attr, a.infolist()[1].internal_attr,
            big_a.compress_size / big_b.compress_size)
      """
    let out = try TestInspection.python(
      check, [dir.appendingPathComponent("blocks.zip").path, dir.appendingPathComponent("whole.zip").path]
    ).split(separator: " ")
    try #require(out.count == 4, "\(out)")
    #expect(String(out[0]) == SHA256.hex(text))
    #expect(out[1] == "1", "the XML is marked text, as minizip marks it")
    #expect(out[2] == "0", "the random bytes are not")
    let ratio = try #require(Double(out[3].trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(ratio < 1.01, "blocks primed with the 32 KB before them deflate about as small: \(ratio)")
  }
}
