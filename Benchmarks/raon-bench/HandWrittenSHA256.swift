/// The hand-written SHA-256 Raon used before swift-crypto, kept only here so
/// `raon-bench sha` can compare the two in one run (the reason for the library choice is
/// that measurement; see README "Performance").
struct HandWrittenSHA256: Sendable {
  private typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
  private var state: State = (
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
    0x5be0_cd19
  )
  /// The partial block (64 bytes) and how many of its bytes are in use.
  private var block: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
    0, 0, 0, 0, 0, 0, 0, 0
  )
  private var blockCount = 0
  /// Message length so far, in bytes.
  private var byteCount: UInt64 = 0

  init() {}

  /// Adds bytes to the message.
  mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
    if bytes.withContiguousStorageIfAvailable({ updateBuffer($0) }) != nil { return }
    var chunk: [UInt8] = []
    chunk.reserveCapacity(256)
    for byte in bytes {
      chunk.append(byte)
      if chunk.count == 256 {
        chunk.withUnsafeBufferPointer { updateBuffer($0) }
        chunk.removeAll(keepingCapacity: true)
      }
    }
    chunk.withUnsafeBufferPointer { updateBuffer($0) }
  }

  /// Adds a string's UTF-8 bytes.
  mutating func update(_ text: String) {
    var copy = text
    copy.withUTF8 { updateBuffer($0) }
  }

  /// Adds bytes from memory.
  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    updateBuffer(UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count))
  }

  private mutating func updateBuffer(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    byteCount &+= UInt64(bytes.count)
    var index = 0
    let count = bytes.count
    if blockCount > 0 {
      let take = min(64 - blockCount, count)
      let filled = blockCount
      withUnsafeMutableBytes(of: &block) { buffer in
        buffer.baseAddress!.advanced(by: filled).copyMemory(from: base, byteCount: take)
      }
      blockCount += take
      index = take
      guard blockCount == 64 else { return }
      withUnsafeBytes(of: block) { buffer in Self.compress(&state, buffer.baseAddress!, blocks: 1) }
      blockCount = 0
    }
    let whole = (count - index) / 64
    if whole > 0 {
      Self.compress(&state, UnsafeRawPointer(base + index), blocks: whole)
      index += whole * 64
    }
    if index < count {
      let rest = count - index
      withUnsafeMutableBytes(of: &block) { buffer in
        buffer.baseAddress!.copyMemory(from: base + index, byteCount: rest)
      }
      blockCount = rest
    }
  }

  /// The 32-byte digest.
  mutating func finalize() -> [UInt8] {
    let totalBits = byteCount &* 8
    // The padding: 0x80, zeros to 56 mod 64, then the bit length big-endian (one or two blocks).
    var tail: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
               UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    )
    let used = blockCount
    let tailLength = used < 56 ? 64 : 128
    withUnsafeMutableBytes(of: &tail) { out in
      withUnsafeBytes(of: block) { partial in
        out.baseAddress!.copyMemory(from: partial.baseAddress!, byteCount: used)
      }
      out[used] = 0x80
      for i in 0..<8 { out[tailLength - 1 - i] = UInt8(truncatingIfNeeded: totalBits >> UInt64(8 * i)) }
      Self.compress(&state, UnsafeRawPointer(out.baseAddress!), blocks: tailLength / 64)
    }
    let s = state
    var digest = [UInt8](repeating: 0, count: 32)
    digest.withUnsafeMutableBytes { out in
      for (i, word) in [s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7].enumerated() {
        out.storeBytes(of: word.bigEndian, toByteOffset: i * 4, as: UInt32.self)
      }
    }
    return digest
  }

  /// The digest of a string's UTF-8 bytes, as lower-case hex.
  static func hex(_ text: String) -> String {
    var h = HandWrittenSHA256()
    h.update(text)
    return hexString(h.finalize())
  }

  /// Lower-case hex of bytes.
  static func hexString(_ bytes: [UInt8]) -> String {
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

  /// Compresses `blocks` consecutive 64-byte blocks at `data` into `state`.
  private static func compress(_ state: inout State, _ data: UnsafeRawPointer, blocks: Int) {
    k.withUnsafeBufferPointer { k in
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        for blockIndex in 0..<blocks {
          let block = data + blockIndex * 64
          for t in 0..<16 {
            w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
          }
          for t in 16..<64 {
            let x = w[t - 15]
            let y = w[t - 2]
            let s0 = x.rotr(7) ^ x.rotr(18) ^ (x >> 3)
            let s1 = y.rotr(17) ^ y.rotr(19) ^ (y >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
          }
          var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
          for t in 0..<64 {
            let s1 = e.rotr(6) ^ e.rotr(11) ^ e.rotr(25)
            let ch = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ ch &+ k[t] &+ w[t]
            let s0 = a.rotr(2) ^ a.rotr(13) ^ a.rotr(22)
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
          h0 &+= a
          h1 &+= b
          h2 &+= c
          h3 &+= d
          h4 &+= e
          h5 &+= f
          h6 &+= g
          h7 &+= h
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
      }
    }
  }
}

extension UInt32 {
  @inline(__always) fileprivate func rotr(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
