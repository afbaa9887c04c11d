import Foundation

/// What a config path names, checked before it is opened.
enum ConfigSource {
  /// A description of what `path` names when Raon must not open it as a config (a folder,
  /// a socket, a named FIFO), else `nil`. Regular files and character devices
  /// (`/dev/null`) are read; so is the anonymous pipe of a shell's `--config <(…)`, whose
  /// writer is already there. A named FIFO is refused: opening one that no process writes
  /// to waits forever.
  static func unreadableKind(path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }  // the open says why
    switch info.st_mode & S_IFMT {
    case S_IFREG, S_IFCHR: return nil
    case S_IFIFO: return isAnonymousPipe(path) ? nil : "a FIFO (named pipe)"
    case S_IFDIR: return "a folder"
    case S_IFSOCK: return "a socket"
    case S_IFBLK: return "a block device"
    default: return "not a regular file"
    }
  }

  /// Whether `path` leads, through symbolic links (`/dev/fd/63` → `/proc/self/fd/63`), to
  /// a pipe with no name in the file system (`pipe:[…]`), as a shell's `<(…)` gives.
  private static func isAnonymousPipe(_ path: String) -> Bool {
    var current = path
    for _ in 0..<8 {
      var buffer = [CChar](repeating: 0, count: 4_096)
      let count = readlink(current, &buffer, buffer.count - 1)
      guard count > 0 else { return false }
      let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if target.hasPrefix("pipe:[") { return true }
      current = target.hasPrefix("/")
        ? target : (current as NSString).deletingLastPathComponent + "/" + target
    }
    return false
  }

  /// The 1-based line of the first byte sequence that is not UTF-8 (a line break is never
  /// part of a multi-byte character, so lines can be checked one by one).
  static func firstLineNotUTF8(_ data: Data) -> Int {
    var line = 1
    for bytes in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
      if String(validating: bytes, as: UTF8.self) == nil { return line }
      line += 1
    }
    return line
  }
}
