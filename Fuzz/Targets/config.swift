// libFuzzer target: arbitrary bytes → the config reader's grammar check
// (TOMLSyntaxCheck) → TOMLKit, which only sees what the check passed. toml++ is compiled
// here with its asserts on (no NDEBUG): input that reaches one aborts, and the fuzzer
// reports it. What RaonConfig does first is done here too: UTF-8 only, no NUL byte.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else { return 0 }
  let lines: [[String]: Int]
  do {
    lines = try TOMLSyntaxCheck.keyLines(text)
  } catch let failure as TOMLSyntaxCheck.Failure {
    precondition(failure.line >= 1 && failure.column >= 1 && !failure.message.contains("\n"))
    return 0
  } catch {
    preconditionFailure("unexpected error type: \(error)")
  }
  let lineCount = text.utf8.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
  precondition(lines.values.allSatisfy { (1...lineCount).contains($0) })
  if let table = try? TOMLTable(string: text) {
    // Every key TOMLKit read at the top has the line the check found for it.
    for (key, _) in table { precondition(lines[[key]] != nil, "no line for \(key)") }
  }
  return 0
}
