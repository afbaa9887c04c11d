import ArgumentParser

/// The `raon` command line: parses arguments, calls RaonWorkflow, prints results. Started
/// by ``RaonMain``, which owns the exit status.
struct Raon: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "raon",
    abstract: "Keep a history of Seoul's cultural-events catalog (서울시 문화행사 정보) and report on it.",
    discussion: """
      Raon records each download of the catalog as a snapshot in a store (a local SQLite file, or a PostgreSQL database several machines share: --db postgresql://…), then computes statistics by category, district, fee and duration, compares snapshots, and writes Markdown, XLSX, CSV and JSON reports.

      Start here (works offline: an empty store first records the bundled 2024-09-09 sample):
        raon report

      The weekly job, by hand or as a service (raon.toml's [weekly] and [mail]; docs/WEEKLY.md):
        SEOUL_API_KEY=... raon report --api
        raon weekly

      Exit status: 0 success; 1 failure (for 'raon diff --fail-if-changed': 1 changed, 2 failure); 64 usage error (unknown option, bad option value); 69 'raon weekly': another run holds the lock; 75 'raon weekly': deliveries left pending or refused ('raon runs': deliveries pending); 78 bad config file; 130 interrupted (SIGINT), 143 terminated (SIGTERM). Errors are one line on standard error: what went wrong, where, and what to do.
      """,
    version: "0.1.0",
    subcommands: [ReportCommand.self, SnapshotCommand.self, SnapshotsCommand.self, DiffCommand.self, TrendCommand.self, SiteCommand.self, StoreCommand.self, WeeklyCommand.self, RunsCommand.self]
  )
}
