import Foundation

// raon-error-check OUTPUT FILE...
//
// Prints `FILE:LINE: error: …` for every error type in FILEs that is not a `RaonError`
// (see ErrorDeclarations) and exits 1; else writes OUTPUT (a Swift file holding a comment)
// and exits 0. Run by the ErrorStatusCheck build plugin on every module of Raon.

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
  FileHandle.standardError.write(Data("usage: raon-error-check OUTPUT FILE...\n".utf8))
  exit(64)
}
var failed = false
var checked = 0
for path in arguments.dropFirst() {
  guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("\(path):1: error: raon-error-check cannot read this file\n".utf8))
    failed = true
    continue
  }
  checked += 1
  for finding in ErrorDeclarations.findings(in: String(decoding: data, as: UTF8.self)) {
    let message =
      "\(path):\(finding.line):1: error: \(finding.name) conforms to \(finding.conformance) but not to RaonError — "
      + "declare it RaonError (import RaonErrors) and give its exitStatus, so that raon knows how to exit when it is thrown\n"
    FileHandle.standardError.write(Data(message.utf8))
    failed = true
  }
}
if failed { exit(1) }
let witness = "// raon-error-check: every error type in these \(checked) files is a RaonError.\n"
do {
  try Data(witness.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
  FileHandle.standardError.write(Data("\(output):1: error: raon-error-check cannot write this file: \(error)\n".utf8))
  exit(1)
}
