import ArgumentParser
import Foundation
import RaonWorkflow

struct StoreCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "store",
    abstract: "Work on whole stores: copy a history between SQLite and PostgreSQL.",
    subcommands: [Copy.self])

  struct Copy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "copy",
      abstract: "Copy every snapshot of one store into another, empty one, and check the copy.",
      discussion: """
        FROM and TO are each an SQLite file (a path or sqlite:PATH) or postgresql://user@host:port/database[?schema=NAME]. The copy keeps every snapshot's id, time, source and programs with their raw records; it is made in one transaction (all or nothing), then both stores are read back and compared by counts and SHA-256 per snapshot.

        Examples:
          raon store copy ~/.local/share/raon/raon.sqlite postgresql://raon@db.example:5432/culture
          raon store copy postgresql://raon@db.example/culture backup.sqlite
        """)

    @Argument(help: ArgumentHelp("The store to copy from (read only).", valueName: "from"))
    var from: String

    @Argument(help: ArgumentHelp("The empty store to copy into (created if needed).", valueName: "to"))
    var to: String

    func validate() throws {
      if from.trimmingCharacters(in: .whitespaces).isEmpty || to.trimmingCharacters(in: .whitespaces).isEmpty {
        throw ValidationError("FROM and TO must name stores (a path or a postgresql:// URL)")
      }
    }

    func run() async throws {
      let environment = Console.environment()
      let source = try StoreOpening.open(
        try StoreAddress.resolve(explicit: from, environment: environment), environment: environment,
        readOnly: true)
      let target = try StoreOpening.open(
        try StoreAddress.resolve(explicit: to, environment: environment), environment: environment)
      let outcome = try StoreCopyJob(source: source, target: target, environment: environment).run()
      Console.endProgress()
      print(
        "copied \(outcome.snapshots) snapshots (\(outcome.programs) programs) from \(source.location) to \(target.location); checked: history SHA-256 \(outcome.historySHA256)"
      )
    }
  }
}
