import Foundation
import Testing
import TestSupport

@testable import RaonIngest

/// Issue 37, major 6: small workbooks that inflate to gigabytes. Each bomb (written by
/// Python's zipfile, Tests/Scripts/raon_testkit/xlsx_bombs.py) is sized to reach one limit
/// of ``XLSXReadLimits`` and no other, and is refused naming it; before, each was read
/// (the end-to-end tests measure the memory it took).
@Suite struct XLSXBombTests {
  static func bomb(_ kind: String, _ size: Int) throws -> Data {
    let dir = try Fixtures.temporaryDirectory("raon-bomb")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("\(kind).xlsx")
    let result = try Python.run([
      "-c", "import runpy, sys; sys.path.insert(0, sys.argv[1]); sys.argv = ['x'] + sys.argv[2:]; "
        + "runpy.run_module('raon_testkit.xlsx_bombs', run_name='__main__')",
      Fixtures.repositoryRoot.appendingPathComponent("Tests/Scripts").path, kind, file.path, String(size),
    ])
    try #require(result.status == 0, "\(result.stderr)")
    return try Data(contentsOf: file)
  }

  static func refusal(_ data: Data, _ name: String) -> SpreadsheetError? {
    do {
      _ = try XLSXCatalogReader.read(data, source: name)
      return nil
    } catch {
      return error as? SpreadsheetError
    }
  }

  @Test(arguments: [
    // 80 MB of one cell in an 80 KB file: past 100 times the file (and the 64 MB floor).
    ("cell", 80, "the parts declare 80 MB of XML"),
    // A 2 MB cell: under the inflation floor, over the cell's 1 MB.
    ("cell", 2, "cell A3 holds more than 1 MB of text"),
    ("shared", 2, "shared string 1 holds more than 1 MB"),
    // 5 million empty shared strings: 25 MB of XML in a ~40 KB file.
    ("empty-shared", 5_000_000, "more than 100000 shared strings"),
    ("sparse", 2_000, "row 3 reaches column EQXD"),
    ("styles", 100_000, "more than 64000 cell styles"),
    // Declares 1 KB, inflates to 70 MB: counted as it inflates.
    ("lying", 70, "it inflates to more than 64 MB"),
  ])
  func aBombIsRefusedNamingItsLimit(kind: String, size: Int, says: String) throws {
    let data = try Self.bomb(kind, size)
    let error = try #require(Self.refusal(data, "\(kind).xlsx"), "\(kind) \(size) was read")
    guard case .tooLarge = error else {
      Issue.record("\(kind): \(error)")
      return
    }
    #expect(error.description.contains(says), "\(error)")
    #expect(error.description.contains("ZIP bomb") && !error.description.contains("\n"))
  }

  /// Millions of relationships: only the first sheet's is kept (before, every one was).
  @Test func aMillionRelationshipsAreNotKept() throws {
    let data = try Self.bomb("rels", 1_000_000)
    let batch = try XLSXCatalogReader.read(data, source: "rels.xlsx")
    #expect(batch.records.count == 1)
  }

  @Test func theInflationLimitFollowsTheFilesSize() {
    #expect(XLSXReadLimits(fileBytes: 1_000).inflationLimit == 64 << 20)
    #expect(XLSXReadLimits(fileBytes: 10_000_000).inflationLimit == 1_000_000_000)
    #expect(XLSXReadLimits(fileBytes: 1 << 30).inflationLimit == 4 << 30)
    #expect(XLSXReadLimits(fileBytes: Int.max).inflationLimit == 4 << 30)
    #expect(XLSXReadLimits(fileBytes: 1_000).sharedStringLimit == 100_000)
    #expect(XLSXReadLimits(fileBytes: 3_000_000).sharedStringLimit == 3_000_000)
  }
}
