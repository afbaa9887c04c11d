import Foundation

/// Replaces the API key with `****` in any text about to leave the client.
///
/// The key travels inside the URL path, so every URL, every underlying error (whose
/// description may repeat the URL) and every body snippet passes through here. Both the
/// key as given and its percent-encoded form are replaced.
///
/// ```swift
/// KeyRedactor(key: "abc123").redact("http://h/abc123/json")  // "http://h/****/json"
/// ```
public struct KeyRedactor: Sendable {
  /// What the key is replaced with.
  public static let mask = "****"
  private let forms: [String]

  /// - Parameter key: The secret; an empty key redacts nothing.
  public init(key: String) {
    var forms: [String] = []
    if !key.isEmpty {
      forms.append(key)
      if let encoded = key.addingPercentEncoding(withAllowedCharacters: KeyRedactor.unreserved),
        encoded != key
      {
        forms.append(encoded)
        // Servers and proxies that echo a path may write the escapes in lower case.
        let lower = KeyRedactor.lowercasingEscapes(encoded)
        if lower != encoded { forms.append(lower) }
      }
    }
    // The longest form first, so a form containing another is replaced whole.
    self.forms = forms.sorted { $0.count > $1.count }
  }

  /// `text` with every occurrence of the key replaced by ``mask``.
  public func redact(_ text: String) -> String {
    var out = text
    for form in forms where out.contains(form) {
      out = out.replacingOccurrences(of: form, with: KeyRedactor.mask)
    }
    return out
  }

  /// The description of `error`, redacted. URLError's description carries the failing
  /// URL (and so the key) in its user info; this is the only way such text may leave.
  public func describe(_ error: any Error) -> String {
    if let urlError = error as? URLError {
      return redact("URLError \(urlError.code.rawValue): \(urlError.localizedDescription)")
    }
    return redact(String(describing: error))
  }

  /// `%2B` → `%2b`: the same escapes with lower-case hex digits, the rest unchanged.
  static func lowercasingEscapes(_ text: String) -> String {
    var out: [UInt8] = []
    var pending = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: "%") {
        pending = 2
        out.append(byte)
      } else if pending > 0 {
        pending -= 1
        out.append((0x41...0x46).contains(byte) ? byte + 0x20 : byte)
      } else {
        out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// RFC 3986 unreserved characters: what may stand unencoded in a path segment.
  static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
