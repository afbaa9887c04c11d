import ArgumentParser
import Foundation
import RaonCore
import RaonExport
import RaonStore
import RaonWorkflow

struct WeeklyCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "weekly",
    abstract: "Run the Monday routine from raon.toml: pull, record, report (city + packs), site, deliver by e-mail.",
    discussion: """
      Reads [weekly] and [mail] from raon.toml (or --config FILE): pulls the catalog from the Open API (SEOUL_API_KEY) or takes the newest file of a folder, trying again with growing waits for retry_for; records it (unless the store holds it already); writes the city report and the district packs in out/<YYYY-Www>/; rebuilds the site; sends each recipient list its message (page 1 in the body, the PDF and workbook attached) through the SMTP server. One run at a time (a lock); every run and delivery is recorded in the store ('raon runs'). The SMTP password comes from RAON_SMTP_PASSWORD or [mail] password_file and is never printed or stored.

      Running it again in the same week records, writes and sends nothing twice; --resend sends again on purpose.

      Before anything is sent the run checks the week: data an earlier week was already reported from, or collected longer ago than [weekly] max_age (8 days), makes the week stale — nothing goes to the offices (or, with stale_notice, a short notice) and the operators get an alert; the gates of [weekly.gates] (the catalog's size, a district left empty, most programs changed, columns added or gone) hold the deliveries when one trips, as approve = true does every week, until 'raon weekly --release'. One run per store: the store itself holds the run lock.

      Exit status: 0 done; 1 a step failed (the earlier report and site are kept); 65 the report is written but its deliveries are held (a gate tripped, or approve): --release sends them; 66 stale: no new data, nothing sent to the offices; 69 another run holds the store's lock; 75 published, but deliveries are pending or refused (the next run sends what is pending); 78 the config is wrong.

      Examples:
        raon weekly --dry-run
        raon weekly
        raon weekly --release
        raon weekly --deliver-pending
        raon weekly --week 2025-08-18 --resend
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var catalog: CatalogOption

  @Flag(name: .customLong("dry-run"), help: "Say what would be recorded, written and sent (recipients, subjects, sizes); change nothing.")
  var dryRun = false

  @Option(
    name: .long,
    help: ArgumentHelp("Run a past week again, from its snapshot: a day of it (YYYY-MM-DD), e.g. its Monday.", valueName: "date"))
  var week: String?

  @Flag(name: .long, help: "Send the week's messages again, to everyone on the lists.")
  var resend = false

  @Flag(name: .customLong("deliver-pending"), help: "Only send the deliveries earlier runs left pending.")
  var deliverPending = false

  @Flag(name: .long, help: "Send the deliveries a gate or approve held (after a look at the report); with --week, that week's only.")
  var release = false

  func validate() throws {
    if let week, CalendarDay(iso: week) == nil {
      throw ValidationError("--week takes a date, YYYY-MM-DD (e.g. 2025-08-18), not '\(week)'")
    }
    if deliverPending && (week != nil || resend || release) {
      throw ValidationError("--deliver-pending sends what is pending of every week; give it without --week, --resend or --release")
    }
    if release && resend {
      throw ValidationError("--release sends exactly what is held; give it without --resend")
    }
  }

  func run() async throws {
    var environment = Console.environment()
    if let clock = try WeeklyClock.fromEnvironment(environment.variables) {
      environment.now = clock
      Console.warning("\(WeeklyClock.variable) sets this run's clock to \(ReportTime.iso8601UTC(clock())) (for tests)")
    }
    var config = try store.loadConfig(environment)
    guard config.weekly != nil else {
      throw WeeklyError.notConfigured(path: config.path ?? store.config ?? RaonConfig.fileName)
    }
    var request = WeeklyRequest()
    request.dryRun = dryRun
    request.week = week.flatMap { CalendarDay(iso: $0) }
    request.resend = resend
    request.deliverPending = deliverPending
    request.release = release
    request.version = Raon.configuration.version
    let defaults = ExportOptions()
    var options = ExportOptions(
      language: config.lang ?? defaults.language, csvEncoding: config.csvEncoding ?? defaults.csvEncoding,
      chartTopN: config.chartTopN ?? defaults.chartTopN, csvHeaders: config.csvHeaders ?? defaults.csvHeaders)
    options.head = config.document

    let outcome: WeeklyOutcome
    if dryRun {
      // Reads only: a store that does not exist yet is no error, and nothing is created.
      let address = try StoreAddress.resolve(explicit: store.db ?? config.db, environment: environment)
      var opened: (any SnapshotStoring)?
      var problem: String?
      do {
        opened = try StoreOpening.open(address, environment: environment, readOnly: true)
      } catch {
        if case .sqlite(let url) = address, !FileManager.default.fileExists(atPath: url.path) {
          problem = nil
        } else {
          problem = TerminalText.oneLine(String(describing: error))
        }
      }
      options.profile = try catalog.profile(for: opened, config: config)
      config = try config.forCatalog(options.profile)
      outcome = try await WeeklyDryRun(
        store: opened, storePath: opened?.location ?? address.display, environment: environment, config: config,
        options: options, storeProblem: problem
      ).run(request)
    } else {
      // A lock file first: one naming the store is refused before the store is opened.
      let address = try StoreAddress.resolve(explicit: store.db ?? config.db, environment: environment)
      let storeFile: String? = if case .sqlite(let url) = address { url.path } else { nil }
      let lockFile = try WeeklyJob.takeLockFile(config, storeFile: storeFile, environment: environment)
      var (snapshotStore, path) = try store.openStore(environment, config: config)
      snapshotStore.shrinkGuard = .standard
      options.profile = try catalog.profile(for: snapshotStore, config: config)
      config = try config.forCatalog(options.profile)
      var job = WeeklyJob(store: snapshotStore, storePath: path, environment: environment, config: config, options: options)
      job.lockFile = lockFile
      outcome = try await job.run(request)
      store.foldLog(snapshotStore, path: path)
    }
    Console.endProgress()
    for warning in outcome.warnings { Console.warning(warning) }
    print(outcome.lines.map(TerminalText.oneLine).joined(separator: "\n"))
    if let problem = outcome.problem { throw WeeklyError.unhealthy("the dry run found that the run would not go through: \(problem)") }
    switch outcome.verdict {
    case .stale(let reason) where !dryRun: throw WeeklyError.stale(reason)
    case .held(let reason) where !dryRun: throw WeeklyError.held(reason)
    default: break
    }
    if outcome.pending > 0 || outcome.refused > 0 {
      throw WeeklyError.deliveriesLeft(pending: outcome.pending, refused: outcome.refused)
    }
  }
}
