/// Which of the command line's exit statuses an error calls for (sysexits(3)).
public enum ExitStatus: Sendable, Equatable {
  /// The command was given wrongly: an unknown option, a bad option value (64, `EX_USAGE`).
  case usage
  /// The config file is wrong (78, `EX_CONFIG`).
  case config
  /// The work itself failed (1; 2 for `raon diff`, whose 1 means "changed").
  case failure
  /// Another run holds the lock: nothing was done (69, `EX_UNAVAILABLE`).
  case busy
  /// Published, but deliveries are left pending (or were refused): try again later (75,
  /// `EX_TEMPFAIL`).
  case pending
  /// `raon weekly`: the week's data was not new, so nothing was sent (66, `EX_NOINPUT`: no
  /// new input).
  case stale
  /// `raon weekly`: the week's report is written, its deliveries held for a person's look
  /// (65, `EX_DATAERR`: the data looked wrong, or approval is required).
  case held
}
