import CCurl
import Foundation

/// The SMTP client: libcurl's (Debian `libcurl4-openssl-dev`), one easy handle for a whole
/// run, so the connection is reused from one message to the next.
///
/// `smtp://` requires STARTTLS (`CURLUSESSL_ALL`: a server that does not offer it is
/// refused, never spoken to in clear); `smtps://` is TLS from the start. Certificates are
/// verified, against `caFile` when one is given. Nothing is logged: libcurl's verbose
/// output, which would show the login exchange, stays off; no text of the server's replies
/// is kept either (a server may echo the login back), only their codes.
///
/// `timeout` bounds every wait: the connection and each reply within one message's
/// conversation (`CURLOPT_TIMEOUT`, `CURLOPT_SERVER_RESPONSE_TIMEOUT`), and the reply to
/// `QUIT` when the handle is cleaned up — libcurl's own default for that one is 120 s,
/// whatever `CURLOPT_TIMEOUT` says.
public final class CurlSMTPTransport: MailTransport {
  private let server: SMTPServer
  private let handle: UnsafeMutableRawPointer
  /// The EHLO name: this machine's host name (some servers refuse `localhost`).
  private let url: String

  /// libcurl's global set-up, once per process, before any handle.
  private static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

  public init(server: SMTPServer) throws {
    guard Self.initialised, let handle = curl_easy_init() else {
      throw MailSendError.unreachable(reason: "libcurl could not be initialised")
    }
    self.server = server
    self.handle = handle
    var text = server.url.absoluteString
    if server.url.path.isEmpty || server.url.path == "/" {
      if text.hasSuffix("/") { text.removeLast() }
      text += "/" + Self.hostName()
    }
    url = text
  }

  deinit {
    curl_easy_cleanup(handle)
  }

  public func send(_ message: Data, from sender: MailAddress, to recipient: MailAddress) throws {
    let source = UploadSource(Array(message))
    var recipients: UnsafeMutablePointer<curl_slist>? = nil
    recipients = curl_slist_append(recipients, "<\(recipient.text)>")
    defer { curl_slist_free_all(recipients) }
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    defer { errorBuffer.deallocate() }

    let context = Unmanaged.passUnretained(source).toOpaque()
    var code = CURLE_OK
    func set(_ result: CURLcode) { if code == CURLE_OK { code = result } }
    set(raon_curl_setopt_string(handle, CURLOPT_URL, url))
    set(raon_curl_setopt_long(handle, CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue)))
    set(raon_curl_setopt_long(handle, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2)))
    set(raon_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
    set(raon_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
    if let caFile = server.caFile { set(raon_curl_setopt_string(handle, CURLOPT_CAINFO, caFile)) }
    if let user = server.user {
      set(raon_curl_setopt_string(handle, CURLOPT_USERNAME, user))
      set(raon_curl_setopt_string(handle, CURLOPT_PASSWORD, server.password?.secret ?? ""))
    }
    set(raon_curl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(sender.text)>"))
    set(raon_curl_setopt_list(handle, CURLOPT_MAIL_RCPT, recipients))
    set(raon_curl_setopt_long(handle, CURLOPT_UPLOAD, 1))
    set(raon_curl_setopt_long(handle, CURLOPT_INFILESIZE, message.count))
    set(raon_curl_setopt_read_function(handle, uploadCallback))
    set(raon_curl_setopt_pointer(handle, CURLOPT_READDATA, context))
    set(raon_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
    set(raon_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, min(server.connectTimeout, server.timeout)))
    set(raon_curl_setopt_long(handle, CURLOPT_TIMEOUT, server.timeout))
    // Each reply, and the reply to QUIT at clean-up: libcurl's closing handle copies this
    // value when the transfer starts, and waits 120 s without it.
    set(raon_curl_setopt_long(handle, CURLOPT_SERVER_RESPONSE_TIMEOUT, server.timeout))
    set(raon_curl_setopt_long(handle, CURLOPT_VERBOSE, 0))
    set(raon_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
    guard code == CURLE_OK else {
      throw MailSendError.unreachable(reason: "libcurl refused an option (\(String(cString: curl_easy_strerror(code))))")
    }
    var result = withExtendedLifetime(source) { curl_easy_perform(handle) }
    var reply = 0
    _ = raon_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &reply)
    if Self.diedBeforeTheMessage(result, detail: String(cString: errorBuffer), reused: reusedConnection(), uploaded: uploaded()) {
      // The connection kept from the last message was gone (a server that closes after
      // each message; over TLS libcurl cannot tell before it writes): no byte of this
      // message reached the server, so it goes once more on a new connection.
      source.offset = 0
      errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
      result = withExtendedLifetime(source) { curl_easy_perform(handle) }
      _ = raon_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &reply)
    }
    // The buffer must not outlive this call in the handle.
    _ = raon_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
    _ = raon_curl_setopt_list(handle, CURLOPT_MAIL_RCPT, nil)
    guard result != CURLE_OK else { return }
    throw Self.classify(
      result, reply: reply, detail: String(cString: errorBuffer), recipient: recipient, timeout: server.timeout)
  }

  /// Whether the last transfer ran on a connection kept from an earlier one.
  private func reusedConnection() -> Bool {
    var connects = 0
    return raon_curl_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects) == CURLE_OK && connects == 0
  }

  /// The bytes of the message the last transfer handed over.
  private func uploaded() -> Int64 {
    var bytes: curl_off_t = 0
    return raon_curl_getinfo_offset(handle, CURLINFO_SIZE_UPLOAD_T, &bytes) == CURLE_OK ? Int64(bytes) : -1
  }

  /// Whether a transfer failed because its connection was gone before any byte of the
  /// message went: a kept connection the server had closed. (Once the message went, the
  /// server may hold it — a reply it could not finish says nothing — so it is not sent
  /// again: the delivery stays pending.)
  static func diedBeforeTheMessage(_ code: CURLcode, detail: String, reused: Bool, uploaded: Int64) -> Bool {
    guard reused, uploaded == 0 else { return false }
    switch code {
    case CURLE_RECV_ERROR, CURLE_GOT_NOTHING: return true
    case CURLE_SEND_ERROR: return !detail.contains("failed:")
    default: return false
    }
  }

  /// What a libcurl failure means for this delivery (see ``MailSendError``): the phase
  /// comes from the code and libcurl's own words in the error buffer (`MAIL failed: 553`,
  /// `RCPT failed: 550`, `DATA failed: 554`, `Remote access denied: 550` for EHLO,
  /// `Got unexpected smtp-server response: 554` for the greeting; an empty buffer with
  /// `CURLE_WEIRD_SERVER_REPLY` is the reply to the message's end), the reply's class from
  /// its code. The server's own text is never taken.
  static func classify(_ code: CURLcode, reply: Int, detail: String, recipient: MailAddress, timeout: Int) -> MailSendError {
    let said = oneLine(detail)
    let text = said.isEmpty ? String(cString: curl_easy_strerror(code)) : said
    switch code {
    case CURLE_OPERATION_TIMEDOUT:
      return .timedOut(seconds: timeout)
    case CURLE_LOGIN_DENIED:
      return .authentication(reason: (reply > 0 ? "reply \(reply)" : text) + " — check [mail] user and the password")
    case CURLE_USE_SSL_FAILED:
      return .tls(
        reason: said.hasPrefix("STARTTLS denied")
          ? "the server refused STARTTLS (reply \(reply)), and smtp:// requires it"
          : "the server does not offer STARTTLS, and smtp:// requires it (use smtps:// for TLS from the start)")
    case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
      return .tls(reason: text + " — is the server's CA in ca_file?")
    default:
      break
    }
    let phase: SMTPPhase
    if said.hasPrefix("MAIL failed") {
      phase = .sender
    } else if said.hasPrefix("RCPT failed") {
      phase = .recipient
    } else if said.hasPrefix("DATA failed") || (code == CURLE_WEIRD_SERVER_REPLY && said.isEmpty) {
      phase = .message
    } else if said.hasPrefix("Remote access denied") {
      phase = .hello
    } else if said.hasPrefix("Got unexpected smtp-server response") {
      phase = .greeting
    } else {
      return .unreachable(reason: text)
    }
    let replyText = reply > 0 ? "reply \(reply)" : text
    switch (reply / 100, phase) {
    case (4, _): return .deferred(reply: replyText, phase: phase)
    case (5, .recipient): return .recipientRefused(recipient, reply: replyText)
    case (5, .sender): return .senderRefused(reply: replyText)
    case (5, .message): return .messageRefused(reply: replyText)
    case (5, _): return .sessionRefused(reply: replyText, phase: phase)
    default: return .unreachable(reason: "an unexpected reply at \(phase.command) (\(text))")
    }
  }

  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: { $0.isNewline }).joined(separator: " ").trimmingCharacters(in: .whitespaces)
  }

  private static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // A name that would not survive in a URL path is no EHLO name.
    return name.isEmpty || !name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
      ? "localhost" : name
  }
}

/// The message being uploaded, read by libcurl through ``uploadCallback``.
private final class UploadSource {
  let bytes: [UInt8]
  var offset = 0
  init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// libcurl's read callback: the next bytes of the message.
private let uploadCallback: raon_curl_read_callback = { buffer, size, count, context in
  guard let buffer, let context else { return 0 }
  let source = Unmanaged<UploadSource>.fromOpaque(context).takeUnretainedValue()
  let n = min(size * count, source.bytes.count - source.offset)
  guard n > 0 else { return 0 }
  source.bytes.withUnsafeBufferPointer { all in
    guard let base = all.baseAddress else { return }
    UnsafeMutableRawPointer(buffer).copyMemory(from: base + source.offset, byteCount: n)
  }
  source.offset += n
  return n
}
