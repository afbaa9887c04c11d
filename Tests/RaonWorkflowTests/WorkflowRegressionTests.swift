import Foundation
import RaonStore
import TestSupport
import Testing

@testable import RaonWorkflow

/// Regressions of the hardening work, each named after what was found.
@Suite struct WorkflowRegressionTests {
  static let key = "RegressionKey0123456789"

  /// Found by SecretsNeverWrittenEndToEndTests: `--api-base ftp://KEY@host` (or any base that is not
  /// an http(s) URL) was quoted back verbatim in the error, key and all.
  @Test(arguments: ["ftp://\(key)@example.invalid", "::\(key)::", "\(key)", "file:///\(key)"])
  func anInvalidAPIBaseIsQuotedWithTheKeyRedacted(base: String) async throws {
    let job = SnapshotJob(
      store: try SnapshotStore.inMemory(),
      environment: RaonEnvironment(variables: ["SEOUL_API_KEY": Self.key]))
    do {
      _ = try await job.recordFromAPI(base: base, takenAt: nil)
      Issue.record("\(base) was accepted")
    } catch let error as WorkflowError {
      let text = error.description
      #expect(!text.contains(Self.key), "\(text)")
      #expect(text.contains("****"), "\(text)")
    }
  }

  /// Found by ReportFaultTests (full disk): a writer's error named the hidden
  /// `.NAME.raon-partial-PID` folder instead of the --out folder, and did not say that the
  /// earlier report was kept.
  @Test func aWriterErrorNamesTheTargetFolderAndSaysEarlierReportsAreKept() {
    let target = URL(fileURLWithPath: "/srv/reports/2024-W37")
    let hidden = URL(fileURLWithPath: "/srv/reports/.2024-W37.raon-partial-42")
    struct Failing: Error, CustomStringConvertible {
      var path: String
      var description: String { "could not save \(path)/report.xlsx" }
    }
    let text = ReportRendering.writeFailure(Failing(path: hidden.path), writing: hidden, for: target).description
    #expect(text.contains("could not save /srv/reports/2024-W37/report.xlsx"), "\(text)")
    #expect(!text.contains("raon-partial"), "\(text)")
    #expect(text.contains("earlier reports were left as they were"), "\(text)")
  }
}
