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
    #expect(oneThread.parts == 0)
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
    typealias Open = @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutableRawPointer?
    typealias Write = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, UInt32) -> Int32
    typealias ClosePart = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    typealias CloseZip = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Int32
    let process = dlopen(nil, RTLD_NOW)
    struct NotLoaded: Error { let name: String }
    func symbol<F>(_ name: String, as type: F.Type) throws -> F {
      guard let address = dlsym(process, name) else { throw NotLoaded(name: name) }
      return unsafeBitCast(address, to: type)
    }
    raon_xlsx_set_pipelined(1)
    let zipOpen = try symbol("zipOpen", as: Open.self)
    let write = try symbol("zipWriteInFileInZip", as: Write.self)
    let closePart = try symbol("zipCloseFileInZip", as: ClosePart.self)
    let closeZip = try symbol("zipClose", as: CloseZip.self)
    let zip = try #require(zipOpen("/dev/full", 0))
    let before = raon_xlsx_parts_pipelined()
    var codes: [Int32] = []
    codes.append(
      raon_xlsx_open_part(zip, "xl/worksheets/sheet1.xml", nil, nil, 0, nil, 0, nil, 8, 1, 0, -15, 8, 0, nil, 0, 0, 0, 0))
    #expect(raon_xlsx_parts_pipelined() == before + 1, "the part was queued")
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
}
