import Foundation
import Testing
import TestSupport

/// The later download the national end-to-end tests compare with: Scripts/national_later.py's
/// edit of a real download (a region renamed with its codes, events edited, removed and
/// added, sessions changed), written as `later.csv` into a test's folder.
enum NationalLaterDownload {
  static func write(from download: URL = Fixtures.nationalCSV, into dir: URL) throws -> URL {
    let later = dir.appendingPathComponent("later.csv")
    let script = NationalEndToEndTests.scripts.appendingPathComponent("national_later.py")
    let built = try Python.run([script.path, download.path, later.path])
    #expect(built.status == 0, "\(built.stderr)")
    return later
  }
}
