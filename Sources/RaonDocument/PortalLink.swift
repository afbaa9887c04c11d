/// The one rule for which program address becomes a link: the portal's own program pages,
/// `http(s)://culture.seoul.go.kr/…` or `www.culture.seoul.go.kr/…`.
///
/// The README promises that Raon links only there; a 문화포털상세URL on any other host
/// (`https://example.com/x?cultcode=1`, `http://127.0.0.1:9/…`) became the title's link
/// in HTML, PDF and Markdown (issue 27), and the site's program pages kept a looser check
/// of their own (issue 37). Every writer and every page asks this rule; any other address
/// is shown as text. The host must follow the scheme at once and be followed by `/` (no
/// port, no `@user` part, no longer host name, no leading space), and the address holds no
/// control character or DEL.
///
/// A value (its hosts are data), so a catalog profile can carry its own; ``isProgramPage(_:)``
/// asks Seoul's.
public struct PortalLink: Sendable, Hashable {
  /// The hosts whose pages are linked, in lower case.
  public let hosts: [String]
  private let hostBytes: [[UInt8]]

  public init(hosts: [String]) {
    self.hosts = hosts.map { $0.lowercased() }
    self.hostBytes = self.hosts.map { Array($0.utf8) }
  }

  /// The Seoul culture portal's program pages.
  public static let seoul = PortalLink(hosts: ["culture.seoul.go.kr", "www.culture.seoul.go.kr"])

  /// Whether `url` is a page of Seoul's portal (``seoul``).
  public static func isProgramPage(_ url: String) -> Bool { seoul.links(url) }

  /// Whether `url` is a page on one of ``hosts`` (so it may be a link).
  public func links(_ url: String) -> Bool {
    // One pass over the bytes: the workbook asks for every program.
    if let answer = url.utf8.withContiguousStorageIfAvailable(links(bytes:)) { return answer }
    return Array(url.utf8).withUnsafeBufferPointer(links(bytes:))
  }

  private static let https = Array("https://".utf8)
  private static let http = Array("http://".utf8)

  private func links(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
    func starts(_ text: [UInt8], at offset: Int) -> Bool {
      guard offset + text.count <= bytes.count else { return false }
      for (i, t) in text.enumerated() where lower(bytes[offset + i]) != t { return false }
      return true
    }
    let afterScheme: Int
    if starts(Self.https, at: 0) {
      afterScheme = Self.https.count
    } else if starts(Self.http, at: 0) {
      afterScheme = Self.http.count
    } else {
      return false
    }
    guard
      hostBytes.contains(where: { host in
        starts(host, at: afterScheme) && afterScheme + host.count < bytes.count
          && bytes[afterScheme + host.count] == UInt8(ascii: "/")
      })
    else { return false }
    // A space is percent-encoded by the Markdown writer (the workbook refuses it itself).
    for byte in bytes where byte < 0x20 || byte == 0x7F { return false }
    return true
  }
}
