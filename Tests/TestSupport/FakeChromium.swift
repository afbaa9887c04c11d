import Foundation

/// A stand-in Chromium (a Python script) for Chromium's faults (issue 27): it prints a
/// PDF it makes itself, over the DevTools pipe (descriptors 3 and 4, as Raon drives
/// Chromium) or to `--print-to-pdf=PATH` (as Raon once did), and misbehaves as told.
///
/// The PDF is a real one (header, objects, cross-reference table, trailer, `%%EOF`),
/// 3 pages and about 40 KB, so that its first 20,000 bytes are a truncated PDF.
public enum FakeChromium {
  public enum Behaviour: String, Sendable {
    /// Prints the whole PDF.
    case good
    /// Prints the first 20,000 bytes of the PDF and exits 0.
    case truncate
    /// Prints the whole PDF, exits 0, but leaves a child (`sleep 300`) holding its pipes.
    case linger
    /// Starts a child (`sleep 300`) and never answers.
    case hang
    /// Prints the whole PDF, but answers its second `Page.printToPDF` with an error.
    case failSecondPrint
  }

  /// Writes the script into `directory` as `name`.
  ///
  /// - Parameter record: A file the script writes on start: its `SigBlk:`/`SigIgn:` lines
  ///   of `/proc/self/status`, `pid:`, `pgid:`, and `child:` (its child's pid) if any.
  public static func write(
    _ behaviour: Behaviour, named name: String = "chromium", in directory: URL, record: URL? = nil
  ) throws -> URL {
    let url = directory.appendingPathComponent(name)
    let script = """
      #!/usr/bin/env python3
      import base64, json, os, subprocess, sys, time
      MODE = \(String(reflecting: behaviour.rawValue))
      RECORD = \(String(reflecting: record?.path ?? ""))

      def make_pdf():
          objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R 5 0 R 7 0 R] /Count 3 >>"]
          for page in range(3):
              body = b"BT /F1 12 Tf 72 720 Td (page %d) Tj ET\\n" % page + b"% padding " * 1300 + b"\\n"
              objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents %d 0 R >>" % (len(objects) + 2))
              objects.append(b"<< /Length %d >>\\nstream\\n" % len(body) + body + b"endstream")
          out = b"%PDF-1.4\\n"
          offsets = []
          for i, obj in enumerate(objects):
              offsets.append(len(out))
              out += b"%d 0 obj\\n" % (i + 1) + obj + b"\\nendobj\\n"
          xref = len(out)
          out += b"xref\\n0 %d\\n0000000000 65535 f \\n" % (len(objects) + 1)
          for o in offsets:
              out += b"%010d 00000 n \\n" % o
          out += b"trailer\\n<< /Size %d /Root 1 0 R >>\\nstartxref\\n%d\\n%%%%EOF\\n" % (len(objects) + 1, xref)
          return out

      pdf = make_pdf()
      if MODE == "truncate":
          pdf = pdf[:20000]
      lines = []
      for line in open("/proc/self/status"):
          if line.startswith(("SigBlk:", "SigIgn:")):
              lines.append(line.strip())
      lines += ["pid:%d" % os.getpid(), "pgid:%d" % os.getpgid(0)]
      pipe = os.path.exists("/proc/self/fd/3")
      if MODE in ("linger", "hang"):
          child = subprocess.Popen(["sleep", "300"], pass_fds=(3, 4) if pipe else (), start_new_session=False)
          lines.append("child:%d" % child.pid)
      if RECORD:
          with open(RECORD + ".tmp", "w") as f:
              f.write("\\n".join(lines) + "\\n")
          os.rename(RECORD + ".tmp", RECORD)
      if MODE == "hang":
          time.sleep(600)
          sys.exit(0)
      targets = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--print-to-pdf=")]
      if targets:
          with open(targets[0], "wb") as f:
              f.write(pdf)
          sys.exit(0)
      buffer = b""
      tabs = 0
      prints = 0
      def send(message):
          data = json.dumps(message).encode() + b"\\0"
          while data:
              data = data[os.write(4, data):]
      while True:
          chunk = os.read(3, 65536)
          if not chunk:
              break
          buffer += chunk
          while b"\\0" in buffer:
              raw, buffer = buffer.split(b"\\0", 1)
              m = json.loads(raw)
              method, session = m.get("method"), m.get("sessionId")
              result = {}
              reply = {"id": m["id"]}
              if method == "Target.createTarget":
                  tabs += 1
                  result = {"targetId": "T%d" % tabs}
              elif method == "Target.attachToTarget":
                  result = {"sessionId": "S" + m["params"]["targetId"][1:]}
              elif method == "Page.navigate":
                  result = {"frameId": "F1", "loaderId": "L1"}
              elif method == "Page.printToPDF":
                  prints += 1
                  if MODE == "failSecondPrint" and prints == 2:
                      reply["error"] = {"code": -32000, "message": "Printing failed"}
                  result = {"data": base64.b64encode(pdf).decode()}
              if "error" not in reply:
                  reply["result"] = result
              if session:
                  reply["sessionId"] = session
              send(reply)
              if method == "Page.navigate":
                  send({"method": "Page.loadEventFired", "params": {"timestamp": 1}, "sessionId": session})
              if method == "Browser.close":
                  sys.exit(0)
      """
    try Data(script.utf8).write(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    return url
  }

  /// The record file's `key:value` lines, once it exists (waits up to `seconds`).
  public static func record(_ url: URL, waiting seconds: TimeInterval = 20) -> [String: String] {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let text = try? String(contentsOf: url, encoding: .utf8) {
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
          guard let colon = line.firstIndex(of: ":") else { continue }
          out[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return out
      }
      usleep(50_000)
    }
    return [:]
  }

  /// Whether process `pid` is running (a zombie waiting for its parent counts as ended).
  public static func isRunning(_ pid: Int32) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
    return !status.contains("State:\tZ")
  }

  /// Whether a signal mask line (`SigBlk: 0000000000004003`) holds HUP, INT or TERM.
  public static func holdsHangUpInterruptOrTerminate(_ mask: String) -> Bool {
    guard let bits = UInt64(mask, radix: 16) else { return true }
    return [SIGHUP, SIGINT, SIGTERM].contains { bits & (1 << UInt64($0 - 1)) != 0 }
  }
}
