import Foundation

/// A misbehaving SMTP server on 127.0.0.1, scripted per phase (`raon_testkit.smtp_script`,
/// raw sockets): a reply of the test's choice, a hang, a dropped connection, a reply that
/// echoes the login. The well-behaved server is ``SMTPTestServer`` (aiosmtpd).
///
/// ```swift
/// let smtp = try ScriptedSMTPServer.start(in: dir, user: "raon", password: "pw",
///                                         script: #"{"on": {"quit": {"hang": true}}}"#)
/// // raon.toml: server = "smtp://127.0.0.1:\(smtp.port)", ca_file = smtp.caFile
/// smtp.events()      // [["event": "connect", …], ["event": "hang", "phase": "quit"], …]
/// smtp.clearBytes()  // every byte a client sent outside TLS
/// ```
public final class ScriptedSMTPServer: @unchecked Sendable {
  public let port: Int
  public let caFile: String
  /// Where accepted messages are kept (`NNNN.eml`, `NNNN.json`), with `clear.bin` and
  /// `events.jsonl`.
  public let folder: URL
  private var process: Process?

  private init(port: Int, caFile: String, folder: URL, process: Process) {
    self.port = port
    self.caFile = caFile
    self.folder = folder
    self.process = process
  }

  /// Starts a server with `script` (JSON; see smtp_script.py) keeping its files in
  /// `directory/<name>` (certificates in `directory/certs`).
  public static func start(
    in directory: URL, name: String = "scripted", user: String, password: String, script: String = "{}"
  ) throws -> ScriptedSMTPServer {
    let folder = directory.appendingPathComponent(name)
    let (process, port, ca) = try SMTPTestServer.launchPython([
      "python3", "-m", "raon_testkit.smtp_script", "--dir", folder.path, "--certs",
      directory.appendingPathComponent("certs").path, "--user", user, "--password", password, "--script", script,
    ])
    return ScriptedSMTPServer(port: port, caFile: ca, folder: folder, process: process)
  }

  /// Stops the server (SIGTERM) and waits for it.
  public func stop() {
    guard let process else { return }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    self.process = nil
  }

  deinit { stop() }

  /// What happened, in order: `connect`, `login` (`ok`), `hang` (`phase`), `drop`,
  /// `message` (`rcpt`), `quit`, `closed`, … each with its connection (`conn`).
  public func events() -> [[String: Any]] {
    guard let text = try? String(contentsOf: folder.appendingPathComponent("events.jsonl"), encoding: .utf8) else {
      return []
    }
    return text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// Every byte clients sent outside TLS.
  public func clearBytes() -> Data {
    (try? Data(contentsOf: folder.appendingPathComponent("clear.bin"))) ?? Data()
  }

  /// The envelopes of the messages accepted (`mail_from`, `rcpt_tos`, `tls`, `login`).
  public func envelopes() -> [[String: Any]] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
      $0.hasSuffix(".json")
    }
    return names.sorted().compactMap {
      guard let data = try? Data(contentsOf: folder.appendingPathComponent($0)) else { return nil }
      return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }
  }
}
