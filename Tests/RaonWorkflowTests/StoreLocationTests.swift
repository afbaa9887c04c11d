import Foundation
import Testing

@testable import RaonWorkflow

/// Where the store is: an empty path is refused, never read as the default.
@Suite struct StoreLocationTests {
  /// Item 5: `--db ""` (a cron line's unset variable) is refused, never read as "the
  /// default store".
  @Test func emptyPathsAreRefused() throws {
    let environment = RaonEnvironment(variables: ["HOME": "/tmp/h"])
    #expect(throws: WorkflowError.emptyPath(option: "--db")) {
      try StoreLocation.resolve(explicit: "", environment: environment)
    }
    #expect(throws: WorkflowError.emptyPath(option: "--db")) {
      try StoreLocation.resolve(explicit: "  ", environment: environment)
    }
    let emptyVariable = RaonEnvironment(variables: ["HOME": "/tmp/h", "RAON_DB": ""])
    #expect(throws: WorkflowError.emptyPath(option: "RAON_DB")) {
      try StoreLocation.resolve(explicit: nil, environment: emptyVariable)
    }
    #expect(try StoreLocation.resolve(explicit: nil, environment: environment).path
      == "/tmp/h/.local/share/raon/raon.sqlite")
  }
}
