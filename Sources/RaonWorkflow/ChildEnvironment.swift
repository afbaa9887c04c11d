/// The environment a program Raon starts gets: Raon's own, without a secret. Chromium (and
/// the processes it starts: the browser, its zygote, renderers, the crash handler) needs
/// none of Raon's keys and passwords, and a process's environment is readable in
/// `/proc/PID/environ` for as long as it lives and lands in its crash dumps.
///
/// A variable is left out when its name is
/// - one Raon reads a secret from: `SEOUL_API_KEY`, `DATA_GO_KR_KEY`, `RAON_SMTP_PASSWORD`,
///   `PGPASSWORD`, `RAON_DB` (a PostgreSQL URL may carry `?password=`), or any
///   `RAON_WEBHOOK_…` (a webhook's URL carries its token: each channel kind names its prefix);
/// - a secret by its shape: it ends in `_KEY`, `_TOKEN`, `_SECRET`, `_PASSWORD`, `_PASSWD`,
///   `_PASS`, `_CREDENTIALS`, `_APIKEY` or `_AUTH`, or holds `PASSWORD`, `SECRET`,
///   `TOKEN` or `APIKEY` (case ignored; `KEY` alone is too common a word to go by);
///
/// and when its value holds the value of one left out (8 characters or more): a copy under
/// another name. The rule is a deny-list, so a wrapper script around Chromium keeps what
/// it needs (`PATH`, `HOME`, `LANG`, `XDG_*`, `DISPLAY`, `SNAP_*`, …).
enum ChildEnvironment {
  /// The variables Raon takes secrets from.
  static let secretNames: Set<String> = ["SEOUL_API_KEY", "DATA_GO_KR_KEY", "RAON_SMTP_PASSWORD", "PGPASSWORD", "RAON_DB"]

  static let secretSuffixes = [
    "_KEY", "_TOKEN", "_SECRET", "_PASSWORD", "_PASSWD", "_PASS", "_CREDENTIALS", "_APIKEY", "_AUTH",
  ]
  static let secretWords = ["PASSWORD", "SECRET", "TOKEN", "APIKEY"]

  /// Whether a variable called `name` is taken for a secret.
  static func isSecret(_ name: String) -> Bool {
    let upper = name.uppercased()
    return secretNames.contains(upper) || ChannelRegistry.secretVariablePrefixes.contains(where: upper.hasPrefix)
      || secretSuffixes.contains(where: upper.hasSuffix)
      || secretWords.contains(where: upper.contains)
  }

  /// `environment` without its secrets, nor copies of them under other names.
  static func withoutSecrets(_ environment: [String: String]) -> [String: String] {
    let secrets = environment.filter { isSecret($0.key) }
    let values = secrets.values.filter { $0.utf8.count >= 8 }
    return environment.filter { name, value in
      secrets[name] == nil && !values.contains(where: value.contains)
    }
  }
}
