/// An error of Raon's, with the exit status it calls for.
///
/// Every error type in Raon's modules conforms to this, not to `Error` alone: the build
/// refuses one that does not (the `ErrorStatusCheck` plugin, run on every module), so a new
/// error type cannot reach the command line without a status. Conform with an exhaustive
/// `switch` over the error's cases and no `default:`, so that a new case does not compile
/// until it is given a status either.
///
/// ```swift
/// public enum ImportError: RaonError, CustomStringConvertible {
///   case missingColumn(String), badOption(String)
///   public var exitStatus: ExitStatus {
///     switch self {
///     case .missingColumn: .failure
///     case .badOption: .usage
///     }
///   }
/// }
/// ```
public protocol RaonError: Error {
  var exitStatus: ExitStatus { get }
}
