import Foundation
import RaonConcurrency
import RaonErrors

/// Prints HTML pages as PDFs: a headless browser outside Raon (RaonWorkflow's Chromium).
/// The export layer only renders pages and hands them over (``PDFPrinting``).
public protocol Printer: Sendable {
  /// How many pages it may be given at once (at least one).
  var concurrency: Int { get }
  /// The PDF of `html` (a whole page as text), checked whole.
  ///
  /// - Parameter name: The file named in errors (`report.pdf`).
  func print(html: String, name: String) throws -> Data
}

/// A page to print, as a PDF writer renders it: the HTML, and where its PDF goes.
public struct PrintJob: Sendable {
  public var html: String
  /// The PDF's file, in the (staged) output folder.
  public var destination: URL

  public init(html: String, destination: URL) {
    self.html = html
    self.destination = destination
  }

  /// The file's name, for errors.
  public var name: String { destination.lastPathComponent }
}

/// The PDF post-step: every page a run's writers queued (``ExportResult/printing``), printed
/// by one ``Printer``, up to ``Printer/concurrency`` at once, each written to its file.
public enum PDFPrinting {
  /// A PDF that was printed but could not be written: the output folder's failure, not
  /// the printer's.
  public struct Unwritable: RaonError, CustomStringConvertible {
    public var exitStatus: ExitStatus { .failure }
    public var file: URL
    public var error: any Error
    public var description: String { String(describing: error) }
  }

  /// Prints `jobs` and writes each PDF.
  ///
  /// - Throws: The printer's error as it is, or ``Unwritable``; of several failures, the
  ///   first job's.
  public static func print(_ jobs: [PrintJob], with printer: any Printer) throws {
    try ParallelWork.forEach(jobs.count, width: printer.concurrency) { i in
      let job = jobs[i]
      let pdf = try printer.print(html: job.html, name: job.name)
      do {
        try OutputDirectories.create(job.destination.deletingLastPathComponent())
        try pdf.write(to: job.destination)
      } catch {
        throw Unwritable(file: job.destination, error: error)
      }
    }
  }
}
