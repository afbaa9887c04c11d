import CXlsxDeflate
import Foundation
import RaonCore
import TestSupport
import Testing

@testable import RaonExport

/// A workbook's parts are deflated on a thread of the ZIP's own while libxlsxwriter writes
/// the next (`Sources/CXlsxDeflate/xlsx_zip_pipeline.c`): the file is the same bytes as
/// when every call is made on the saving thread, and a failure of the real calls on that
/// thread still fails the save, with the system's reason.
/// (One suite, serialized: its tests switch the pipeline off and on for the process.)
@Suite("XLSX ZIP pipeline", .serialized)
struct XLSXZipPipelineTests {
  @Test func aPipelinedWorkbookIsTheSameBytesAsOneSavedOnOneThread() throws {
    let dir = try Fixtures.temporaryDirectory("raon-xlsx-pipeline")
    defer {
      raon_xlsx_set_pipelined(1)
      try? FileManager.default.removeItem(at: dir)
    }
    func save(pipelined: Bool) throws -> (bytes: Data, parts: Int) {
      raon_xlsx_set_pipelined(pipelined ? 1 : 0)
      let folder = dir.appendingPathComponent(pipelined ? "pipelined" : "one-thread")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let before = raon_xlsx_parts_pipelined()
      _ = try XLSXReportWriter().write(XLSXFixtures.report, into: folder, options: ExportOptions())
      let parts = raon_xlsx_parts_pipelined() - before
      return (try Data(contentsOf: folder.appendingPathComponent(XLSXReportWriter.fileName)), parts)
    }
    let oneThread = try save(pipelined: false)
    let pipelined = try save(pipelined: true)
    // Every part of the workbook went through the ZIP's thread: the file's entries.
    let entries = try TestInspection.python(
      "import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).infolist()))",
      [dir.appendingPathComponent("pipelined").appendingPathComponent(XLSXReportWriter.fileName).path])
    // At least: other suites save workbooks at the same time, through the same counter.
    #expect(pipelined.parts >= Int(entries.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max)
    #expect(pipelined.parts > 10)
    #expect(pipelined.bytes == oneThread.bytes)
  }

  /// libminizip writing into /dev/full: the writes fail on the ZIP's thread (no space left
  /// on device), and the failure comes back from a later call or from zipClose at the
  /// latest, with its errno, instead of a ZIP that looks saved.
  @Test func aFailureOnTheZIPsThreadComesBackToTheSaver() throws {
    raon_xlsx_set_pipelined(1)
    let zipOpen = try Self.symbol("zipOpen", as: Open.self)
    let write = try Self.symbol("zipWriteInFileInZip", as: Write.self)
    let closePart = try Self.symbol("zipCloseFileInZip", as: ClosePart.self)
    let closeZip = try Self.symbol("zipClose", as: CloseZip.self)
    let zip = try #require(zipOpen("/dev/full", 0))
    let before = raon_xlsx_parts_pipelined()
    var codes: [Int32] = []
    codes.append(
      raon_xlsx_open_part(zip, "xl/worksheets/sheet1.xml", nil, nil, 0, nil, 0, nil, 8, 1, 0, -15, 8, 0, nil, 0, 0, 0, 0))
    #expect(raon_xlsx_parts_pipelined() >= before + 1, "the part was queued (other suites may save at the same time)")
    // Random bytes do not deflate: 8 MB reach the device well before the ZIP closes.
    var generator = SystemRandomNumberGenerator()
    var piece = [UInt8](repeating: 0, count: 16_384)
    for _ in 0..<512 {
      for i in piece.indices { piece[i] = UInt8.random(in: 0...255, using: &generator) }
      codes.append(piece.withUnsafeBytes { write(zip, $0.baseAddress, UInt32($0.count)) })
    }
    codes.append(closePart(zip))
    errno = 0
    let closed = closeZip(zip, nil)
    let reason = errno
    let failure = codes.first { $0 != 0 } ?? closed
    #expect(failure == -1, "ZIP_ERRNO, from a call made after the failure or from zipClose: \(codes.filter { $0 != 0 }.prefix(3)) \(closed)")
    #expect(closed != 0, "zipClose reports the failure")
    #expect(reason == ENOSPC)
  }

  // MARK: - Blocks

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
  static func saveParts(_ parts: [(String, [UInt8])], to url: URL, pipelined: Bool) throws {
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

  /// A part larger than a block (1 MB) is deflated in blocks by the pipeline's workers, each
  /// primed with the 32 KB before it (`Sources/CXlsxDeflate/xlsx_zip_pipeline.c`): the ZIP
  /// reads back whole (Python's zipfile checks every entry's CRC), each part is its bytes,
  /// marked as text as minizip marks it, and about as small as minizip's own deflate.
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
    try Self.saveParts(parts, to: dir.appendingPathComponent("blocks.zip"), pipelined: true)
    // A block per MB begun, and one for the empty part.
    let blocks = parts.reduce(0) { $0 + max(1, ($1.1.count + (1 << 20) - 1) >> 20) }
    #expect(blocks >= 10)
    #expect(raon_xlsx_blocks_deflated() - before >= blocks)
    try Self.saveParts(parts, to: dir.appendingPathComponent("whole.zip"), pipelined: false)
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
