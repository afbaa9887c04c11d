#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A string compared and hashed by its UTF-8 bytes.
///
/// Swift's own `String` hashing and equality follow Unicode canonical equivalence, which for
/// non-ASCII text (all of Raon's categories and districts) runs a normalisation pass on every
/// call — most of the time of a million-row grouping. Byte equality implies `String`
/// equality, so this is a sound fast path; ``KeyIndex`` then merges keys that differ in
/// bytes but are equal as strings, so results still follow `String` semantics.
struct UTF8Key: Hashable {
  let text: String

  func hash(into hasher: inout Hasher) {
    hasher.combine(fnv1a(text))
  }

  static func == (a: UTF8Key, b: UTF8Key) -> Bool { sameUTF8(a.text, b.text) }
}

/// Whether two strings have the same UTF-8 bytes (a sufficient test for `==`).
@inline(__always)
func sameUTF8(_ a: String, _ b: String) -> Bool {
  let fast = a.utf8.withContiguousStorageIfAvailable { pa in
    b.utf8.withContiguousStorageIfAvailable { pb in
      // memcmp, not a byte loop: this is on a diff's hot path (bench/PROFILING.md).
      guard pa.count == pb.count else { return false }
      guard let a = pa.baseAddress, let b = pb.baseAddress else { return true }
      return memcmp(a, b, pa.count) == 0
    }
  }
  // Only strings without contiguous UTF-8 (bridged ones, on Apple platforms) come here.
  return (fast ?? nil) ?? a.utf8.elementsEqual(b.utf8)
}

/// FNV-1a over the UTF-8 bytes: cheap for the short keys grouped here, and the same whether
/// the bytes are contiguous or not.
@inline(__always)
func fnv1a(_ text: String) -> UInt64 {
  func step(_ hash: inout UInt64, _ byte: UInt8) {
    hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
  }
  var hash: UInt64 = 0xCBF2_9CE4_8422_2325
  let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
    for byte in bytes { step(&hash, byte) }
  }
  if done == nil {
    for byte in text.utf8 { step(&hash, byte) }
  }
  return hash
}
