import Foundation
import RaonConcurrency
import RaonExport

#if canImport(Glibc)
  import Glibc
#endif

/// One headless Chromium that prints any number of pages: started on the first print (or
/// by ``start()``), driven over the DevTools protocol on descriptors 3 and 4
/// (`--remote-debugging-pipe`, NUL-separated JSON), closed by ``close()``.
///
/// A report with 25 district packs printed 26 PDFs by starting Chromium 26 times (issue
/// 24); one browser prints them all. Each page is loaded from a file into a tab and printed
/// with `Page.printToPDF` as `--print-to-pdf` prints (the page's own `@page` size and
/// margins, backgrounds, no header or footer of Chromium's).
///
/// ``print(html:name:)`` may be called from several threads at once: each call prints in a
/// tab of its own (tabs are kept for the next page), so up to ``concurrency`` pages lay out
/// in parallel in one browser. Every print has ``ChromiumPrinter/timeout`` seconds; a
/// browser that takes longer, fails a print, or ends, is stopped with its whole process
/// group, the prints in flight in it fail, and the next print starts a new one.
///
/// It is the ``Printer`` of the PDF post-step (``PDFPrinting``). Whoever creates a session
/// closes it; those it is lent to only print.
final class ChromiumSession: Printer {
  let printer: ChromiumPrinter
  /// How many prints pay to have in flight at once: one per core (Chromium lays a page out
  /// on one thread of its renderer). More are safe; each gets a tab of its own.
  let concurrency: Int
  /// The browser, once asked for: started by the first caller, waited for by the rest.
  private let browser = Guarded<PendingResult<Browser>?>(nil)

  init(printer: ChromiumPrinter, concurrency: Int = ChromiumSession.defaultConcurrency) {
    self.printer = printer
    self.concurrency = max(1, concurrency)
  }

  static var defaultConcurrency: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  /// Starts the browser on a thread of its own, so that its start overlaps the caller's
  /// other work; the first print waits for it (and throws its failure, if it failed).
  func start() {
    browser.withLock { browser in
      guard browser == nil else { return }
      let printer = self.printer
      browser = PendingResult.start { try Browser.start(printer, name: "report.pdf") }
    }
  }

  /// Prints `html` (a page as text) and returns the PDF, checked whole.
  ///
  /// - Parameter name: The file named in errors (`report.pdf`).
  func print(html: String, name: String) throws -> Data {
    let deadline = Date().addingTimeInterval(printer.timeout)
    let (pending, starts) = browser.withLock { browser -> (PendingResult<Browser>, Bool) in
      if let browser { return (browser, false) }
      let pending = PendingResult<Browser>()
      browser = pending
      return (pending, true)
    }
    if starts { pending.fulfil(Result { try Browser.start(printer, name: name) }) }
    let started: Browser
    do {
      started = try pending.wait().get()
    } catch {
      forget(pending)
      throw error
    }
    do {
      let pdf = try started.print(html: html, name: name, until: deadline)
      guard PDFCheck.isWhole(pdf) else {
        throw ChromiumPrinter.Error.incomplete(file: name, bytes: pdf.count)
      }
      return pdf
    } catch {
      // A browser that failed once is not trusted with the next page.
      forget(pending)
      started.stop()
      throw error
    }
  }

  /// How many tabs the browser has open: more than one once prints overlapped.
  var tabs: Int {
    guard case .success(let started)? = browser.withLock({ $0 })?.wait() else { return 0 }
    return started.tabs
  }

  /// Lets go of `pending` unless another browser has taken its place already.
  private func forget(_ pending: PendingResult<Browser>) {
    browser.withLock { if $0 === pending { $0 = nil } }
  }

  /// Closes the browser (asking it first), ends its process group and removes its folder.
  func close() {
    let pending = browser.withLock { browser in
      defer { browser = nil }
      return browser
    }
    if case .success(let started)? = pending?.wait() { started.close() }
  }

  // MARK: - The browser

  /// A running Chromium and its DevTools connection.
  final class Browser: @unchecked Sendable {
    let printer: ChromiumPrinter
    let folder: URL
    let log: URL
    let child: ChildProcessGroup
    private let socket: Int32
    /// What the printing threads and the reader share; the printing threads wait on it
    /// for the answers and events the reader puts in.
    private let state = Monitor(State())

    private struct State {
      var responses: [Int: [String: Any]] = [:]
      var events: [[String: Any]] = []
      /// The browser closed its end (the socket is closed too).
      var closed = false
      var nextID = 0
      var pages = 0
      /// Tabs (their sessions) open and not printing.
      var idleTabs: [String] = []
      var opened = 0
    }

    var tabs: Int { state.withLock { $0.opened } }

    private init(printer: ChromiumPrinter, folder: URL, log: URL, child: ChildProcessGroup, socket: Int32) {
      self.printer = printer
      self.folder = folder
      self.log = log
      self.child = child
      self.socket = socket
    }

    /// The arguments of the browser (a profile folder of its own, no sandbox, no GPU).
    static func arguments(profile: URL) -> [String] {
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
        "--no-first-run", "--no-default-browser-check", "--disable-extensions",
        "--disable-dev-shm-usage", "--user-data-dir=\(profile.path)", "about:blank",
      ]
    }

    static func start(_ printer: ChromiumPrinter, name: String) throws -> Browser {
      let folder = try PrintScratch.makeFolder()
      do {
        let fm = FileManager.default
        let temporary = folder.appendingPathComponent("tmp", isDirectory: true)
        try fm.createDirectory(at: temporary, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("chromium.log")
        let logFD = open(log.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard logFD >= 0 else { throw Rename.Failure(code: errno) }
        defer { Glibc.close(logFD) }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0
        else { throw Rename.Failure(code: errno) }
        defer { Glibc.close(pair[1]) }
        // Chromium's settings and caches (crash-report settings, dconf) go into the folder
        // too, so nothing of it stays in the home folder, and its temporary files, so that
        // nothing of it stays in the user's TMPDIR when it is killed.
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = temporary.appendingPathComponent("config").path
        environment["XDG_CACHE_HOME"] = temporary.appendingPathComponent("cache").path
        if let own = PrintScratch.chromiumTemporaryFolder(in: folder) { environment["TMPDIR"] = own.path }
        let child: ChildProcessGroup
        do {
          child = try PrintScratch.start(in: folder) {
            try ChildProcessGroup(
              executable: printer.executable.path,
              arguments: arguments(profile: folder.appendingPathComponent("profile", isDirectory: true)),
              descriptors: [3: pair[1], 4: pair[1]], output: logFD, environment: environment)
          }
        } catch let error as WorkflowError {
          Glibc.close(pair[0])
          throw error
        } catch {
          Glibc.close(pair[0])
          throw ChromiumPrinter.Error.failed(
            file: name, status: -1, detail: "\(printer.executable.path) did not start: \(error)")
        }
        let browser = Browser(printer: printer, folder: folder, log: log, child: child, socket: pair[0])
        // Ends when the browser closes its end of the socket.
        _ = PendingResult.start(named: "raon.chromium.reader") { browser.readMessages() }
        return browser
      } catch {
        PrintScratch.release(folder)
        throw error
      }
    }

    /// Prints one page in a tab no other print is using, which is kept for the next page.
    func print(html: String, name: String, until deadline: Date) throws -> Data {
      let (page, idle) = state.withLock { state in
        state.pages += 1
        return (state.pages, state.idleTabs.popLast())
      }
      let source = folder.appendingPathComponent("page-\(page).html")
      try Data(html.utf8).write(to: source)
      defer { try? FileManager.default.removeItem(at: source) }
      let session = try idle ?? tab(name: name, until: deadline)
      // The tab is kept only after a print that worked: a failed one stops the browser.
      let pdf = try print(source, in: session, name: name, until: deadline)
      state.withLock { $0.idleTabs.append(session) }
      return pdf
    }

    private func print(_ source: URL, in session: String, name: String, until deadline: Date) throws -> Data {
      forgetEvents(of: session)
      let navigated = try call(
        "Page.navigate", ["url": source.absoluteURL.absoluteString], session: session, name: name, until: deadline)
      if let text = navigated["errorText"] as? String, !text.isEmpty {
        throw ChromiumPrinter.Error.failed(file: name, status: 0, detail: "loading the page: \(text)")
      }
      try waitForEvent("Page.loadEventFired", session: session, name: name, until: deadline)
      let printed = try call(
        "Page.printToPDF",
        ["printBackground": true, "preferCSSPageSize": true, "displayHeaderFooter": false],
        session: session, name: name, until: deadline)
      guard let encoded = printed["data"] as? String, let pdf = Data(base64Encoded: encoded) else {
        throw unexpected(name, "Page.printToPDF")
      }
      return pdf
    }

    /// Opens a tab: one renderer serves all the pages printed in it (a navigation replaces
    /// the page whole), with print as its media.
    private func tab(name: String, until deadline: Date) throws -> String {
      let target = try call("Target.createTarget", ["url": "about:blank"], name: name, until: deadline)
      guard let targetID = target["targetId"] as? String else { throw unexpected(name, "Target.createTarget") }
      let attached = try call(
        "Target.attachToTarget", ["targetId": targetID, "flatten": true], name: name, until: deadline)
      guard let session = attached["sessionId"] as? String else { throw unexpected(name, "Target.attachToTarget") }
      _ = try call("Page.enable", [:], session: session, name: name, until: deadline)
      // Pages are laid out for print as they load, so `Page.printToPDF` does not lay them
      // out a second time for another medium (the PDF is the same).
      _ = try call("Emulation.setEmulatedMedia", ["media": "print"], session: session, name: name, until: deadline)
      state.withLock { $0.opened += 1 }
      return session
    }

    /// Asks the browser to close, waits for it (its exit, not its descriptors: a process
    /// it left holding them must not keep a finished report waiting), then ends the group.
    func close() {
      if send("Browser.close", [:], session: nil) != nil {
        _ = child.waitForExit(10)
      }
      stop()
    }

    /// Ends the browser's process group and removes its folder.
    func stop() {
      state.withLock { if !$0.closed { shutdown(socket, Int32(SHUT_RDWR)) } }
      PrintScratch.release(folder)
    }

    // MARK: - The protocol

    private func unexpected(_ name: String, _ method: String) -> ChromiumPrinter.Error {
      .failed(file: name, status: 0, detail: "unexpected answer to \(method)")
    }

    /// Sends a command; its id, or `nil` when the browser is gone.
    /// Commands are small, so sending under the lock (which keeps the descriptor from
    /// being closed meanwhile) never holds the reader up for long.
    private func send(_ method: String, _ params: [String: Any], session: String?) -> Int? {
      state.withLock { state in
        guard !state.closed else { return nil }
        state.nextID += 1
        return write(method, params, session: session, id: state.nextID) ? state.nextID : nil
      }
    }

    /// Writes command `id` to the socket whole; whether that worked.
    private func write(_ method: String, _ params: [String: Any], session: String?, id: Int) -> Bool {
      var message: [String: Any] = ["id": id, "method": method, "params": params]
      if let session { message["sessionId"] = session }
      guard var data = try? JSONSerialization.data(withJSONObject: message) else { return false }
      data.append(0)
      return data.withUnsafeBytes { raw -> Bool in
        guard let base = raw.baseAddress else { return false }
        var offset = 0
        while offset < raw.count {
          let n = Glibc.send(socket, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
          if n < 0, errno == EINTR { continue }
          guard n > 0 else { return false }
          offset += n
        }
        return true
      }
    }

    /// Sends a command and waits for its result.
    private func call(
      _ method: String, _ params: [String: Any], session: String? = nil, name: String, until deadline: Date
    ) throws -> [String: Any] {
      guard let id = send(method, params, session: session) else { throw ended(name) }
      let awaited = state.wait(until: deadline) { state -> Awaited<[String: Any]>? in
        if let response = state.responses.removeValue(forKey: id) { return .arrived(response) }
        return state.closed ? .browserEnded : nil
      }
      guard case .arrived(let response)? = awaited else {
        throw awaited == nil ? timedOut(name) : ended(name)
      }
      if let error = response["error"] as? [String: Any] {
        let message = (error["message"] as? String) ?? "error"
        throw ChromiumPrinter.Error.failed(file: name, status: 0, detail: "\(method): \(message)")
      }
      return (response["result"] as? [String: Any]) ?? [:]
    }

    /// Drops the events `session` was sent so far (an earlier page's), so that only the
    /// next page's count.
    private func forgetEvents(of session: String) {
      state.withLock { $0.events.removeAll { $0["sessionId"] as? String == session } }
    }

    /// Waits for `method` sent to `session`, and takes it (other tabs' events stay).
    private func waitForEvent(_ method: String, session: String, name: String, until deadline: Date) throws {
      let awaited = state.wait(until: deadline) { state -> Awaited<Void>? in
        if let index = state.events.firstIndex(where: {
          $0["method"] as? String == method && $0["sessionId"] as? String == session
        }) {
          state.events.remove(at: index)
          return .arrived(())
        }
        return state.closed ? .browserEnded : nil
      }
      guard case .arrived? = awaited else { throw awaited == nil ? timedOut(name) : ended(name) }
    }

    /// What a wait on the reader ends with, short of the deadline.
    private enum Awaited<T> {
      case arrived(T)
      /// The browser closed its end first.
      case browserEnded
    }

    private func timedOut(_ name: String) -> ChromiumPrinter.Error {
      .timedOut(file: name, seconds: Int(printer.timeout.rounded()))
    }

    /// The browser closed its end: how it exited, with its last words.
    private func ended(_ name: String) -> ChromiumPrinter.Error {
      let status = child.waitForExit(2) ?? 0
      return .failed(file: name, status: status, detail: ChromiumPrinter.lastMessage(in: log))
    }

    /// The reader thread: splits what the browser sends at NUL bytes into messages.
    private func readMessages() {
      var pending: [UInt8] = []
      var scanned = 0  // bytes of `pending` known to hold no NUL (a PDF comes in many reads)
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let n = buffer.withUnsafeMutableBytes { Glibc.read(socket, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { break }
        pending.append(contentsOf: buffer[0..<n])
        var messages: [[String: Any]] = []
        var start = 0
        while let end = pending[max(start, scanned)...].firstIndex(of: 0) {
          if let object = try? JSONSerialization.jsonObject(with: Data(pending[start..<end])) as? [String: Any] {
            messages.append(object)
          }
          start = end + 1
        }
        pending.removeFirst(start)
        scanned = pending.count
        guard !messages.isEmpty else { continue }
        state.withLock { state in
          for message in messages {
            if let id = message["id"] as? Int {
              state.responses[id] = message
            } else if message["method"] as? String == "Page.loadEventFired" {
              // The only event waited for; the rest (targets, frames) is dropped.
              state.events.append(message)
            }
          }
        }
      }
      state.withLock { state in
        state.closed = true
        Glibc.close(socket)
      }
    }
  }
}
