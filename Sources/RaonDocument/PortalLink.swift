/// The one rule for which program address becomes a link in a report: the portal's own
/// program pages, `http(s)://culture.seoul.go.kr/…` or `www.culture.seoul.go.kr/…`.
///
/// The README promises that a report links only there; a 문화포털상세URL on any other host
/// (`https://example.com/x?cultcode=1`, `http://127.0.0.1:9/…`) became the title's link
/// in HTML, PDF and Markdown (issue 27). Every writer asks this rule; any other address is
/// shown as text. The host must be followed by `/` (no port, no `@user` part, no longer
/// host name), and the address holds no control character or DEL.
public enum PortalLink {
  /// The portal's hosts, in lower case.
  public static let hosts = ["culture.seoul.go.kr", "www.culture.seoul.go.kr"]

  /// Whether `url` is a page of the portal.
  public static func isProgramPage(_ url: String) -> Bool {
    // One pass over the bytes: the workbook asks for every program.
    if let answer = url.utf8.withContiguousStorageIfAvailable(isProgramPage(bytes:)) { return answer }
    return Array(url.utf8).withUnsafeBufferPointer(isProgramPage(bytes:))
  }

  private static let hostBytes = hosts.map { Array($0.utf8) }

  private static func isProgramPage(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
    func starts(_ text: [UInt8], at offset: Int) -> Bool {
      guard offset + text.count <= bytes.count else { return false }
      for (i, t) in text.enumerated() where lower(bytes[offset + i]) != t { return false }
      return true
    }
    let afterScheme: Int
    if starts(Array("https://".utf8), at: 0) {
      afterScheme = 8
    } else if starts(Array("http://".utf8), at: 0) {
      afterScheme = 7
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
