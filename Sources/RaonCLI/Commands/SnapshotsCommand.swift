import ArgumentParser
import Foundation
import RaonCore
import RaonWorkflow

struct SnapshotsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "snapshots",
    abstract: "List, show or delete the snapshots in the store.",
    discussion: """
      Examples:
        raon snapshots
        raon snapshots --json | python3 -m json.tool
        raon snapshots show 3
        raon snapshots delete 3          # says what would be removed
        raon snapshots delete 3 --yes
      """,
    subcommands: [List.self, Show.self, Delete.self],
    defaultSubcommand: List.self)

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list", abstract: "List the snapshots (the default).")

    @OptionGroup var store: StoreOptions

    @Flag(name: .long, help: "Print a JSON list of {id, takenAt, source, programCount}.")
    var json = false

    func run() async throws {
      let snapshots = try store.openStore(readOnly: true).snapshots()
      if json {
        print(SnapshotListing.json(snapshots))
      } else {
        print(SnapshotListing.table(snapshots), terminator: "")
      }
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Show one snapshot: source, time, counts, the input's SHA-256 and its fields.")

    @OptionGroup var store: StoreOptions

    @OptionGroup var snapshot: SnapshotID

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
      let details = try store.openStore(readOnly: true).details(snapshot: snapshot.id)
      print(json ? SnapshotListing.detailsJSON(details) : SnapshotListing.details(details), terminator: json ? "\n" : "")
    }
  }

  struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete",
      abstract: "Delete one snapshot and whatever only it referenced (without --yes: say what would go).",
      discussion: """
        In one transaction: the snapshot, the program versions no other snapshot holds, and field lists no version uses any more. Later reports compare across the gap. Ids are never reused.
        """)

    @OptionGroup var store: StoreOptions

    @OptionGroup var snapshot: SnapshotID

    @Flag(name: .long, help: "Really delete (otherwise only say what would be removed).")
    var yes = false

    func run() async throws {
      // Without --yes it only counts, so it works on a read-only store and creates nothing.
      let deletion = try store.openStore(readOnly: !yes).deleteSnapshot(id: snapshot.id, dryRun: !yes)
      print(SnapshotListing.deletion(deletion, done: yes))
    }
  }
}

/// The snapshot `show` and `delete` work on.
struct SnapshotID: ParsableArguments {
  @Argument(help: ArgumentHelp("The snapshot's id.", valueName: "id"))
  var id: Int64

  func validate() throws {
    if id < 1 { throw ValidationError("a snapshot id is a positive integer, not \(id)") }
  }
}

/// One printed line about a recorded snapshot.
struct SnapshotInfoLine {
  let text: String
  /// - Parameter events: For a catalog whose rows are sessions (the national data), the
  ///   number of events the rows make.
  init(_ info: SnapshotInfo, unchangedSince: Int64? = nil, events: Int? = nil) {
    let count = events.map { "\(info.programCount) rows (\($0) events)" } ?? "\(info.programCount) programs"
    text = "recorded snapshot \(info.id): \(count) from \(TerminalText.oneLine(info.source)), taken \(info.takenAt.koreaDisplay)"
      + (unchangedSince.map { " — unchanged since snapshot \($0)" } ?? "")
  }
}
