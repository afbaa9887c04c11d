import Testing

@testable import raon_error_check

/// The build's check (`ErrorStatusCheck`): an error type that is not a `RaonError` is
/// found, with its line, however it is declared; one that is, and everything else, is not.
struct ErrorDeclarationsTests {
  static func names(_ text: String) -> [String] {
    ErrorDeclarations.findings(in: text).map { "\($0.line):\($0.name):\($0.conformance)" }
  }

  @Test func anErrorTypeWithoutAStatusIsFound() {
    let text = """
      import Foundation

      public enum ImportError: Error, CustomStringConvertible {
        case missing
        public var description: String { "missing" }
      }
      struct Nested {
        fileprivate struct Failure: Swift.Error {}
        public enum Error: Swift.Error, Equatable { case a }
      }
      @available(*, deprecated) final class Legacy: NSObject, LocalizedError {}
      extension Foreign: @retroactive Error {}
      package protocol Failing: Error {}
      struct Spread:
        Sendable,
        Error
      {
      }
      indirect enum Tree<T>: Error where T: Sendable { case leaf }
      struct Boxed<Value: Sendable, Other>: Sendable, Error {}
      """
    #expect(
      Self.names(text) == [
        "3:ImportError:Error", "8:Failure:Swift.Error", "9:Error:Swift.Error", "11:Legacy:LocalizedError",
        "12:Foreign:Error", "13:Failing:Error", "14:Spread:Error", "19:Tree:Error",
        "20:Boxed:Error",
      ])
  }

  @Test func aRaonErrorAndEverythingElseIsLeftAlone() {
    let text = """
      public enum ImportError: RaonError, CustomStringConvertible {
        case missing
        public var exitStatus: ExitStatus { .failure }
      }
      struct Wrapped: RaonErrors.RaonError, LocalizedError {}
      // enum Commented: Error {}
      /* struct Blocked: Error {} */
      let text = "enum Quoted: Error {}"
      func run() throws(ImportError) {}
      var errors: [any Error] = []
      struct Plain: Sendable, Equatable {}
      extension ImportError: Equatable {}
      enum ErrorKind: String { case a }
      """
    #expect(Self.names(text) == [])
  }
}
