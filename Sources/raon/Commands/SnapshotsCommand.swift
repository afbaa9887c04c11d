import ArgumentParser
import Foundation
import RaonCore
import RaonWorkflow

struct SnapshotsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "snapshots",
    abstract: "List the snapshots in the store.",
    discussion: """
      Examples:
        raon snapshots
        raon snapshots --json | python3 -m json.tool
      """)

  @OptionGroup var store: StoreOptions

  @Flag(name: .long, help: "Print a JSON list of {id, takenAt, source, programCount}.")
  var json = false

  func run() async throws {
    let environment = Console.environment()
    let config = try store.loadConfig(environment)
    let (snapshotStore, _) = try store.openStore(environment, config: config, readOnly: true)
    let snapshots = try snapshotStore.snapshots()
    if json {
      print(SnapshotListing.json(snapshots))
    } else {
      print(SnapshotListing.table(snapshots), terminator: "")
    }
  }
}

/// One printed line about a recorded snapshot.
struct SnapshotInfoLine {
  let text: String
  init(_ info: SnapshotInfo) {
    text = "recorded snapshot \(info.id): \(info.programCount) programs from \(TerminalText.oneLine(info.source)), taken \(info.takenAt.koreaDisplay)"
  }
}
