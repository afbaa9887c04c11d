import Crypto

/// SHA-256, for program ids and content hashes: swift-crypto's (BoringSSL's assembly on
/// Linux) behind the small interface Raon hashes through.
///
/// The store hashes every new program version (a million-program catalog is about a
/// gigabyte of canonical text); `raon-bench sha` compares this with the hand-written
/// implementation Raon used before, in one run (README, "Performance").
public struct SHA256: Sendable {
  private var hasher = Crypto.SHA256()

  public init() {}

  /// Adds bytes to the message.
  public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    if bytes.withContiguousStorageIfAvailable({ hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }) != nil {
      return
    }
    hasher.update(data: Array(bytes))
  }

  /// Adds a string's UTF-8 bytes.
  public mutating func update(_ text: String) {
    var copy = text
    copy.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
  }

  /// Adds bytes from memory.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    hasher.update(bufferPointer: bytes)
  }

  /// The 32-byte digest.
  public mutating func finalize() -> [UInt8] { Array(hasher.finalize()) }

  /// The digest of a string's UTF-8 bytes, as lower-case hex.
  public static func hex(_ text: String) -> String {
    var h = SHA256()
    h.update(text)
    return hexString(h.finalize())
  }

  /// Lower-case hex of bytes.
  public static func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for b in bytes {
      out.append(digits[Int(b >> 4)])
      out.append(digits[Int(b & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
