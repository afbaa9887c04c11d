// The SHA-256 of RaonCore before the 2026-11 rewrite (generic, per-block array), kept only so
// `raon-bench sha` can show the before/after in one run.
/// SHA-256 (FIPS 180-4), for program ids and content hashes.
///
/// Foundation on Linux has no CryptoKit; a small pure implementation saves a heavy
/// dependency. Checked against the FIPS test vectors in the tests.
struct LegacySHA256: Sendable {
  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
    0x5be0_cd19
  )
  private var buffer: [UInt8] = []
  /// Message length so far, in bytes.
  private var byteCount: UInt64 = 0

  public init() { buffer.reserveCapacity(64) }

  /// Adds bytes to the message.
  public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    for byte in bytes {
      byteCount &+= 1
      buffer.append(byte)
      if buffer.count == 64 {
        compress(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
  }

  /// Adds a string's UTF-8 bytes.
  public mutating func update(_ text: String) {
    var copy = text
    copy.withUTF8 { updateBuffer($0) }
  }

  private mutating func updateBuffer(_ bytes: UnsafeBufferPointer<UInt8>) {
    var index = 0
    if !buffer.isEmpty {
      while index < bytes.count && buffer.count < 64 {
        buffer.append(bytes[index])
        index += 1
      }
      if buffer.count == 64 {
        compress(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    while bytes.count - index >= 64 {
      compress(UnsafeBufferPointer(rebasing: bytes[index..<index + 64]))
      index += 64
    }
    while index < bytes.count {
      buffer.append(bytes[index])
      index += 1
    }
    byteCount &+= UInt64(bytes.count)
  }

  /// The 32-byte digest.
  public mutating func finalize() -> [UInt8] {
    let totalBits = byteCount &* 8
    var tail = buffer
    tail.append(0x80)
    while tail.count % 64 != 56 { tail.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: totalBits >> UInt64(shift))) }
    var i = 0
    while i < tail.count {
      compress(tail[i..<i + 64])
      i += 64
    }
    let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
    return words.flatMap { w in (0..<4).map { UInt8(truncatingIfNeeded: w >> UInt32(24 - 8 * $0)) } }
  }

  /// The digest of a string's UTF-8 bytes, as lower-case hex.
  public static func hex(_ text: String) -> String {
    var h = LegacySHA256()
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

  // MARK: - Compression

  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  private mutating func compress<Block: Collection>(_ block: Block)
  where Block.Element == UInt8, Block.Index == Int {
    var w = [UInt32](repeating: 0, count: 64)
    let base = block.startIndex
    for t in 0..<16 {
      let i = base + t * 4
      w[t] =
        UInt32(block[i]) << 24 | UInt32(block[i + 1]) << 16 | UInt32(block[i + 2]) << 8
        | UInt32(block[i + 3])
    }
    for t in 16..<64 {
      let s0 = w[t - 15].legacyRotr(7) ^ w[t - 15].legacyRotr(18) ^ (w[t - 15] >> 3)
      let s1 = w[t - 2].legacyRotr(17) ^ w[t - 2].legacyRotr(19) ^ (w[t - 2] >> 10)
      w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
    }
    var (a, b, c, d, e, f, g, h) = state
    for t in 0..<64 {
      let s1 = e.legacyRotr(6) ^ e.legacyRotr(11) ^ e.legacyRotr(25)
      let ch = (e & f) ^ (~e & g)
      let t1 = h &+ s1 &+ ch &+ LegacySHA256.k[t] &+ w[t]
      let s0 = a.legacyRotr(2) ^ a.legacyRotr(13) ^ a.legacyRotr(22)
      let maj = (a & b) ^ (a & c) ^ (b & c)
      let t2 = s0 &+ maj
      h = g
      g = f
      f = e
      e = d &+ t1
      d = c
      c = b
      b = a
      a = t1 &+ t2
    }
    state = (
      state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f,
      state.6 &+ g, state.7 &+ h
    )
  }
}

extension UInt32 {
  @inline(__always) fileprivate func legacyRotr(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
