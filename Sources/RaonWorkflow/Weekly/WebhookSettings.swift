import Foundation

/// One `[webhook.NAME]` section of `raon.toml`: an HTTP endpoint (a messenger's incoming
/// webhook — 네이버웍스, 카카오워크, Slack, Teams — or an office's own) that gets page 1 of
/// one list's week as JSON (``WebhookChannel``).
///
/// ```toml
/// [webhook.culture]
/// url_env = "RAON_WEBHOOK_CULTURE"       # the endpoint: its token is a secret, so never in the file
/// list = "city"                          # whose week: "city", or a district (시·도) with a pack
/// site_url = "https://raon.example.go.kr/"  # optional: the published site, for links
/// timeout = "20s"                        # optional: for the whole request (default 30 s)
/// ```
struct WebhookSettings: ChannelRecipient, Equatable {
  /// The section's name: the ledger's recipient is `webhook:NAME`.
  var name: String
  /// The environment variable that holds the URL (``variablePrefix`` and more).
  var urlVariable: String
  var list: String
  var siteURL: String?
  var timeout = 30
  var listLine = 0

  init(name: String, urlVariable: String, list: String) {
    self.name = name
    self.urlVariable = urlVariable
    self.list = list
  }

  var kind: any ChannelKind.Type { Self.self }
  var recipient: String { Self.recipientPrefix + name }

  static let recipientPrefix = "webhook:"
  /// Every URL variable starts so: a program Raon starts never gets one (``ChildEnvironment``).
  static let variablePrefix = "RAON_WEBHOOK_"
  static let knownKeys = ["url_env", "list", "site_url", "timeout"]

  /// What would be posted; the URL's variable named, never its value.
  func dryRunLine(_ facts: ChannelDryRun) -> String {
    let set = !(facts.variables[urlVariable]?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true)
    let what =
      facts.stale ? "would post nothing (a webhook gets the week's report only)"
      : facts.hasWeek ? "has \(facts.week) already"
      : "would post page 1 of \(list)" + (facts.sendsNow ? "" : " once released")
    return "webhook \(name): \(what)" + (set ? "" : " — \(urlVariable) is not set, so it would stay pending")
  }
}

extension WebhookSettings: ChannelKind {
  static let section = "webhook"
  static let sectionKeys = "url_env and list"
  static let exampleName = "culture"
  static var secretVariablePrefix: String? { variablePrefix }

  static func channel(for recipients: [any ChannelRecipient], context: ChannelContext) -> any DeliveryChannel {
    WebhookChannel(
      hooks: recipients.compactMap { $0 as? WebhookSettings }, variables: context.variables, out: context.out,
      packFolder: context.profile.words.files.packFolder, post: context.post)
  }

  /// `[webhook.NAME]`: the endpoint's variable, the list it gets, the site it links to.
  static func read(_ section: ChannelSection) throws -> any ChannelRecipient {
    let reader = section.reader
    let hook = section.name
    try reader.checkKeys(knownKeys)
    guard !hook.isEmpty, hook.count <= 40,
      hook.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
    else {
      throw WorkflowError.config(
        path: reader.path, line: reader.lines.line(ofSection: reader.name),
        message: "[\(reader.name)]: a webhook's name is letters, digits, - and _ (at most 40), like [webhook.culture]")
    }
    guard let variable = try reader.nonEmpty("url_env") else {
      throw WorkflowError.config(
        path: reader.path, line: reader.lines.line(ofSection: reader.name),
        message:
          "[\(reader.name)] has no url_env — add url_env = \"\(variablePrefix)\(hook.uppercased().replacingOccurrences(of: "-", with: "_"))\" and put the URL in that variable"
      )
    }
    guard variable.hasPrefix(variablePrefix), variable.count > variablePrefix.count,
      variable.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
    else {
      throw reader.fail(
        "url_env",
        "url_env = '\(variable)' must name an environment variable \(variablePrefix)… (capitals, digits, _): the URL carries the endpoint's token, so it is never written in the file"
      )
    }
    var settings = WebhookSettings(name: hook, urlVariable: variable, list: try section.list())
    settings.listLine = section.listLine
    if let site = try reader.nonEmpty("site_url") {
      guard let url = URL(string: site), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil,
        url.user == nil, url.password == nil
      else {
        throw reader.fail(
          "site_url", "site_url = '\(site)' must be an http:// or https:// address without a login, like \"https://raon.example.go.kr/\"")
      }
      settings.siteURL = site
    }
    if let seconds = try reader.seconds("timeout", 1...600) { settings.timeout = seconds }
    return settings
  }
}
