import RaonCore
import RaonDocument
import RaonErrors
import RaonExport
import RaonMail

/// The `[weekly]` section of `raon.toml`: what `raon weekly` pulls, writes and publishes.
///
/// ```toml
/// [weekly]
/// source = "api"                     # or a folder of downloads: its newest file is taken
/// formats = ["pdf", "xlsx"]          # written, and attached to the messages
/// districts = "all"                  # or a list of district names
/// out = "/srv/raon/reports"          # each week in out/<YYYY-Www>/
/// site = "/srv/raon/site"            # optional: the site is rebuilt there
/// retry_for = "2h"                   # how long a failing pull is tried again
/// retry_wait = "1m"                  # the first wait; each next one doubles (at most 15 min)
/// lock = "/run/raon/weekly.lock"     # default: out/.raon-weekly.lock
/// ```
public struct WeeklySettings: Sendable, Equatable {
  /// Where the catalog comes from.
  public enum Source: Sendable, Equatable {
    /// The Open API (`SEOUL_API_KEY`, the config's `api_base`).
    case api
    /// A folder of downloads: the newest catalog file in it.
    case folder(String)
  }

  public var source: Source = .api
  public var formats: [ReportFormat] = [.pdf, .xlsx]
  /// The districts that get a pack (all 25 by default) — on a national store, the 시·도 and
  /// providers (every 시·도 by default: ``WeeklySettings/forCatalog(_:)``).
  public var districts: [String] = District.all
  /// Whether `districts` is the config's, not the default; and its line there.
  public var districtsGiven = false
  public var districtsLine = 0
  public var out = "reports"
  public var site: String?
  /// Seconds a failing pull is tried again before the run fails.
  public var retryFor = 7_200
  /// Seconds before the first retry; each next wait doubles, up to ``maximumWait``.
  public var retryWait = 60
  /// A lock file besides the store's own lock (``RunLedger/takeRunLock()``); `nil`: none.
  public var lock: String?
  /// Seconds after which the data of a run is too old to send as a new week.
  public var maxAge = 8 * 86_400
  /// Every delivery held until `raon weekly --release`.
  public var approve = false
  /// A stale week sends each list a short notice instead of nothing.
  public var staleNotice = false
  /// What a run checks before it sends.
  public var gates = WeeklyGateSettings()

  /// The longest wait between two attempts to pull.
  public static let maximumWait = 900

  public init() {}

  /// The keys `[weekly]` may hold.
  public static let knownKeys = [
    "source", "formats", "districts", "out", "site", "retry_for", "retry_wait", "lock", "max_age", "approve",
    "stale_notice", "gates",
  ]
}

/// The `[mail]` section of `raon.toml`: the server, the sender, the recipients.
///
/// ```toml
/// [mail]
/// server = "smtp://mail.example:587" # smtp:// requires STARTTLS; smtps:// is TLS from the start
/// from = "서울특별시 문화정책과 <culture@example.go.kr>"  # or the address alone
/// user = "culture"                   # password: RAON_SMTP_PASSWORD, or password_file (mode 0600)
/// password_file = "/etc/raon/smtp-password"
/// ca_file = "/etc/raon/ca.pem"       # optional: a private CA to trust
/// operator = ["ops@example.go.kr"]   # alerts when a run fails or delivers only in part
/// city = ["a@example.go.kr"]
/// max_message_bytes = 10240000       # a larger message is refused before anything is sent
/// timeout = 120                      # seconds for one message's conversation, and for any one reply (QUIT too)
/// [mail.districts]
/// "종로구" = ["b@example.go.kr"]
/// ```
public struct MailSettings: Sendable, Equatable {
  public var server: String
  /// The sender: its address goes in the envelope, its name (if any) in `From:`.
  public var from: Mailbox
  public var user: String?
  public var passwordFile: String?
  public var caFile: String?
  public var operators: [MailAddress] = []
  public var city: [MailAddress] = []
  /// Each district's (or, on a national store, each 시·도's or provider's) recipients, by name.
  public var districts: [String: [MailAddress]] = [:]
  /// The line of each in the config, for a mistake found once the catalog is known.
  public var districtLines: [String: Int] = [:]
  /// Postfix's default `message_size_limit`: the size most servers take.
  public var maxMessageBytes = 10_240_000
  public var timeout = 120

  public init(server: String, from: Mailbox) {
    self.server = server
    self.from = from
  }

  public init(server: String, from: MailAddress) {
    self.init(server: server, from: Mailbox(from))
  }

  /// The keys `[mail]` may hold.
  public static let knownKeys = [
    "server", "from", "user", "password_file", "ca_file", "operator", "city", "districts", "max_message_bytes",
    "timeout",
  ]

  /// The recipient lists, the city's (the country's) first, then the districts (시·도,
  /// providers) in 가나다 order: each list's key (`city` or the name) and its addresses.
  public var lists: [(list: String, recipients: [MailAddress])] {
    [(WeeklyList.city, city)] + PackName.ordered(Array(districts.keys)).compactMap { d in districts[d].map { (d, $0) } }
  }
}

/// The names of the recipient lists in the ledger.
public enum WeeklyList {
  /// The city report's list.
  public static let city = "city"
}
