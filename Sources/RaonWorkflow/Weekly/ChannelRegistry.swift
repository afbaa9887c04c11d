import Foundation
import RaonCore

// Channels configured by sections of their own (`[webhook.NAME]`, …): what the config, the
// weekly run and its dry run ask of one, so that a new channel is its own file(s) and one
// line in ``ChannelRegistry/shipped``. Mail is the channel of `[mail]` (``MailChannel``),
// read and planned as before: a server, lists of addresses, notices and parts.

/// One recipient of a channel kind: a `[SECTION.NAME]` section of `raon.toml`.
protocol ChannelRecipient: Sendable {
  /// The kind of channel that delivers to it.
  var kind: any ChannelKind.Type { get }
  /// `NAME` of its section.
  var name: String { get }
  /// Whose week it gets: `city`, or a region with a pack.
  var list: String { get }
  /// The line of `list` in the config, for a mistake found once the catalog is known.
  var listLine: Int { get }
  /// How the ledger names it: `webhook:culture`.
  var recipient: String { get }
  /// What `raon weekly --dry-run` says of it, in one line.
  func dryRunLine(_ facts: ChannelDryRun) -> String
  /// Whether `other` is the same section, read the same.
  func isSame(as other: any ChannelRecipient) -> Bool
}

extension ChannelRecipient where Self: Equatable {
  func isSame(as other: any ChannelRecipient) -> Bool { (other as? Self) == self }
}

extension ChannelRecipient {
  /// Its section's header, for messages: `webhook.culture`.
  var section: String { "\(kind.section).\(name)" }
}

/// A kind of channel: the section that configures its recipients, how one is read, and the
/// channel that delivers to them in a run.
protocol ChannelKind: SendableMetatype {
  /// The section's name: `webhook` reads `[webhook.NAME]`.
  static var section: String { get }
  /// What a section holds, for the message when it is not one: `url_env and list`.
  static var sectionKeys: String { get }
  /// A name for one in messages: `culture`.
  static var exampleName: String { get }
  /// The environment variables that hold its secrets start so (never given to a program
  /// Raon starts: ``ChildEnvironment``); `nil` when it has none.
  static var secretVariablePrefix: String? { get }
  /// Reads `[SECTION.NAME]` (its list read by ``ChannelSection/list()``).
  static func read(_ section: ChannelSection) throws -> any ChannelRecipient
  /// The channel for this run's recipients of this kind (every one given is of this kind).
  static func channel(for recipients: [any ChannelRecipient], context: ChannelContext) -> any DeliveryChannel
}

/// The channel kinds `raon.toml` may configure besides `[mail]`.
struct ChannelRegistry: Sendable {
  var kinds: [any ChannelKind.Type]

  init(kinds: [any ChannelKind.Type]) {
    self.kinds = kinds
  }

  /// What this Raon ships.
  static let shipped = ChannelRegistry(kinds: [WebhookSettings.self])

  /// The variables every shipped kind takes its secrets from start with one of these.
  static var secretVariablePrefixes: [String] { shipped.kinds.compactMap { $0.secretVariablePrefix } }
}

/// One section of a channel kind being read: its keys (``SectionReader``), its name, and the
/// packs `[weekly] districts` lists, for its `list`.
struct ChannelSection {
  let reader: SectionReader
  /// `NAME` of `[SECTION.NAME]`.
  let name: String
  let packs: [String]?
  let packsGiven: Bool

  /// `list`: `"city"`, or a region with a pack.
  func list() throws -> String {
    guard let text = try reader.nonEmpty("list") else {
      throw WorkflowError.config(
        path: reader.path, line: reader.lines.line(ofSection: reader.name),
        message: "[\(reader.name)] has no list — add list = \"city\" or a district, like list = \"종로구\"")
    }
    if text == WeeklyList.city { return text }
    guard let region = PackName.read(text) else {
      throw reader.fail("list", "list = '\(text)' is neither \"city\" nor one of Seoul's 25 districts (nor a 시·도 of the national catalog)")
    }
    if let packs, packsGiven || District.named(region) != nil, !packs.contains(region) {
      throw reader.fail("list", "list = '\(region)' is a district [weekly] districts leaves out — add it there")
    }
    return region
  }

  /// The line of `list`.
  var listLine: Int { reader.lines.line(of: "list", in: reader.name) }
}

/// The recipients of every channel kind, as `raon.toml` configures them (sorted by section).
struct ConfiguredChannels: Sendable, Equatable {
  var recipients: [any ChannelRecipient] = []

  init(_ recipients: [any ChannelRecipient] = []) {
    self.recipients = recipients
  }

  var isEmpty: Bool { recipients.isEmpty }

  static func == (a: ConfiguredChannels, b: ConfiguredChannels) -> Bool {
    a.recipients.count == b.recipients.count && zip(a.recipients, b.recipients).allSatisfy { $0.isSame(as: $1) }
  }

  /// One channel per kind that has a recipient, in the registry's order of first use.
  func channels(_ context: ChannelContext) -> [any DeliveryChannel] {
    var order: [ObjectIdentifier] = []
    var groups: [ObjectIdentifier: (kind: any ChannelKind.Type, recipients: [any ChannelRecipient])] = [:]
    for recipient in recipients {
      let id = ObjectIdentifier(recipient.kind)
      if groups[id] == nil { order.append(id) }
      groups[id, default: (recipient.kind, [])].recipients.append(recipient)
    }
    return order.compactMap { groups[$0] }.map { $0.kind.channel(for: $0.recipients, context: context) }
  }
}

/// What a channel of a run may use: the service's environment, the published files, the
/// catalog's words, and how HTTP is posted (tests may count what is posted).
struct ChannelContext {
  var variables: [String: String]
  /// The folder the week's files are published under.
  var out: URL
  var profile: CatalogProfile
  var post: HTTPPost
}

/// What `--dry-run` knows of one recipient's week.
struct ChannelDryRun {
  var week: ISOWeek
  /// The week's data is stale: a notice (mail only) would go, not the report.
  var stale: Bool
  /// The recipient has this week already (and `--resend` is not given).
  var hasWeek: Bool
  /// The week would go now (not held until `--release`).
  var sendsNow: Bool
  var variables: [String: String]
}

/// Posts `body` as JSON to `url`, giving up after `timeout` seconds for the whole request;
/// answers the HTTP status. Tests post to a loopback server through the real one.
typealias HTTPPost = @Sendable (_ url: URL, _ body: Data, _ timeout: Int) throws -> Int
