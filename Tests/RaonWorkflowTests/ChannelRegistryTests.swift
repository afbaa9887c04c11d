import Foundation
import RaonCore
import RaonStore
import TestSupport
import Testing

@testable import RaonWorkflow

/// A delivery channel is a kind in a ``ChannelRegistry``: this suite adds one the sources
/// never name — a shared folder an office reads, `[drop.NAME] folder = "…"`, which gets page 1
/// of its list's week as a JSON file — in this file alone, and runs it through the config,
/// the weekly run, its ledger and its dry run beside the shipped webhook.
@Suite("A channel is a registry entry")
struct ChannelRegistryTests {
  /// `[drop.NAME]`: `folder` (relative to the working directory) and `list`.
  struct DropSettings: ChannelRecipient, ChannelKind, Equatable {
    var name: String
    var folder: String
    var list: String
    var listLine = 0

    var kind: any ChannelKind.Type { Self.self }
    var recipient: String { "drop:\(name)" }
    func dryRunLine(_ facts: ChannelDryRun) -> String {
      "drop \(name): " + (facts.stale ? "nothing" : facts.hasWeek ? "has \(facts.week)" : "would drop page 1 of \(list) in \(folder)")
    }

    static let section = "drop"
    static let sectionKeys = "folder and list"
    static let exampleName = "archive"
    static let secretVariablePrefix: String? = nil

    static func read(_ section: ChannelSection) throws -> any ChannelRecipient {
      try section.reader.checkKeys(["folder", "list"])
      guard let folder = try section.reader.nonEmpty("folder") else { throw section.reader.fail("folder", "no folder") }
      return DropSettings(name: section.name, folder: folder, list: try section.list(), listLine: section.listLine)
    }

    static func channel(for recipients: [any ChannelRecipient], context: ChannelContext) -> any DeliveryChannel {
      DropChannel(drops: recipients.compactMap { $0 as? DropSettings }, root: context.out.deletingLastPathComponent())
    }
  }

  final class DropChannel: DeliveryChannel {
    let name = "drop"
    let needsMailParts = false
    let drops: [DropSettings]
    let root: URL

    init(drops: [DropSettings], root: URL) {
      self.drops = drops
      self.root = root
    }

    func delivers(to recipient: String) -> Bool { recipient.hasPrefix("drop:") }

    func deliver(_ parcel: WeeklyParcel, _ delivery: DeliveryRecord, runID: Int64) throws -> ChannelOutcome {
      guard let drop = drops.first(where: { $0.recipient == delivery.recipient }), let summary = parcel.summary else {
        return ChannelOutcome(attempt: .deferred(reason: "not a report"), failure: "not a report")
      }
      let folder = root.appendingPathComponent(drop.folder)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let page = ["week": parcel.week, "list": parcel.list, "title": summary.title, "sentences": summary.sentences.joined(separator: "\n")]
      try JSONSerialization.data(withJSONObject: page, options: [.sortedKeys])
        .write(to: folder.appendingPathComponent("\(parcel.week)-\(parcel.list).json"))
      return .sent(messageID: "drop \(drop.name)", documentHash: parcel.documentHash)
    }
  }

  static let registry = ChannelRegistry(kinds: ChannelRegistry.shipped.kinds + [DropSettings.self])

  @Test func itsSectionsAreReadWithTheLinesOfTheirMistakes() throws {
    let text = """
      [drop.archive]
      folder = "drops/city"
      list = "city"

      [drop.jongno]
      folder = "drops/jongno"
      list = "종로구"

      [webhook.culture]
      url_env = "RAON_WEBHOOK_CULTURE"
      list = "city"
      """
    let config = try RaonConfig.parse(text, path: "raon.toml", registry: .standard, channels: Self.registry)
    #expect(config.channels.recipients.map(\.recipient) == ["drop:archive", "drop:jongno", "webhook:culture"])
    #expect(config.channels.recipients.map(\.list) == ["city", "종로구", "city"])
    #expect(config.channels.recipients.map(\.listLine) == [3, 7, 11])
    // The same text read again is the same config; a different folder is not.
    #expect(config == (try RaonConfig.parse(text, path: "raon.toml", registry: .standard, channels: Self.registry)))
    let moved = text.replacingOccurrences(of: "drops/city", with: "drops/all")
    #expect(config != (try RaonConfig.parse(moved, path: "raon.toml", registry: .standard, channels: Self.registry)))

    func failure(_ text: String, registry: ChannelRegistry = Self.registry) -> String {
      do {
        _ = try RaonConfig.parse(text, path: "raon.toml", registry: .standard, channels: registry)
        return "read"
      } catch { return "\(error)" }
    }
    #expect(failure("[drop.a]\nfolder = \"x\"\nlist = \"city\"\ncolour = 1\n").contains("raon.toml:4"))
    #expect(failure("[drop.a]\nfolder = \"x\"\nlist = \"성남구\"\n").contains("raon.toml:3"))
    #expect(failure("drop = 1\n").contains("[drop.NAME] sections, like [drop.archive] with folder and list"))
    // Without the kind in the registry, the section is not a channel's.
    #expect(failure("[drop.a]\nfolder = \"x\"\nlist = \"city\"\n", registry: .shipped) != "read")
  }

  /// The weekly run (in process) delivers to the new channel through the same ledger: each
  /// list's recipient once, nothing twice on the next run, and its dry run in its own words.
  @Test func theWeekGoesOutOnIt() async throws {
    let c = CatalogConformanceTests.seoul
    let dir = try Fixtures.temporaryDirectory("raon-channel-registry")
    defer { try? FileManager.default.removeItem(at: dir) }
    let environment = RaonEnvironment(variables: [:], workingDirectory: dir)
    let (store, inbox) = try CatalogConformanceTests.lastWeekStored(c, in: dir, environment: environment)

    let config = try RaonConfig.parse(
      """
      [weekly]
      source = "\(inbox.path)"
      formats = ["md"]
      out = "out"
      districts = ["종로구", "마포구", "중구"]

      [drop.archive]
      folder = "drops"
      list = "city"

      [drop.jongno]
      folder = "drops"
      list = "종로구"
      """, path: "raon.toml", registry: .standard, channels: Self.registry
    ).forCatalog(c.profile)
    let job = WeeklyJob(
      store: store, storePath: "store.sqlite", environment: environment, config: config, options: CatalogConformanceTests.options(c))

    var dry = WeeklyRequest()
    dry.dryRun = true
    func dryRun() async throws -> WeeklyOutcome {
      try await WeeklyDryRun(
        store: store, storePath: "store.sqlite", environment: environment, config: config, options: CatalogConformanceTests.options(c)
      ).run(dry)
    }
    let preview = try await dryRun()
    #expect(preview.lines.contains("drop jongno: would drop page 1 of 종로구 in drops"), "\(preview.lines)")

    let outcome = try await job.run(WeeklyRequest())
    #expect(outcome.verdict == .sent && outcome.sent == 2, "\(outcome.lines) \(outcome.problem ?? "")")
    let drops = dir.appendingPathComponent("drops")
    let files = try FileManager.default.contentsOfDirectory(atPath: drops.path).sorted()
    #expect(files == ["\(outcome.week.start)-city.json", "\(outcome.week.start)-종로구.json"])
    let page = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: drops.appendingPathComponent("\(outcome.week.start)-종로구.json")))
        as? [String: String])
    #expect(page["title"]?.contains("종로구") == true && page["list"] == "종로구", "\(page)")
    let ledger = try store.ledger.deliveries(week: outcome.week.start.description)
    #expect(ledger.map(\.recipient).sorted() == ["drop:archive", "drop:jongno"] && ledger.allSatisfy { $0.status == .sent })

    try FileManager.default.removeItem(at: drops)
    let again = try await job.run(WeeklyRequest())
    #expect(again.sent == 0 && !FileManager.default.fileExists(atPath: drops.path), "\(again.lines)")
    let second = try await dryRun()
    #expect(second.lines.contains("drop archive: has \(outcome.week)"), "\(second.lines)")
  }
}
