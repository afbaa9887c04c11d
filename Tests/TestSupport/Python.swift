import Foundation

/// Runs `python3` — the tests' independent reader and fixture writer.
public enum Python {
  /// Runs `python3 ARGS…` and waits; standard output and error are read to the end.
  public static func run(_ arguments: [String]) throws -> RaonProcess.Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Standard error is read on another thread so a chatty script cannot fill its pipe
    // while this one waits on standard output.
    let errData = LockedData()
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      errData.set(err.fileHandleForReading.readDataToEndOfFile())
      done.signal()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    process.waitUntilExit()
    return RaonProcess.Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData.get(), as: UTF8.self))
  }
}
