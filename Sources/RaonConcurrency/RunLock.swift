import Foundation
import RaonErrors

#if canImport(Glibc)
  import Glibc
#endif

/// A lock that one process at a time holds (`flock(2)`), for as long as it lives: the
/// kernel releases it when the process ends, however it ends, so a killed run never leaves
/// it behind. Two kinds:
///
/// - ``acquire(at:holder:)``: a lock file of Raon's own. It is created with its first line
///   already in it (a file written aside, then linked into place), so a file Raon made
///   always says so; an existing file that does not — the store, a config, a download —
///   or a symbolic link is refused, never written to.
/// - ``acquire(onFileOf:)``: the lock a file itself holds (the SQLite store), whatever path
///   or link names it.
///
/// ```swift
/// let lock = try RunLock.acquire(at: "/run/raon/weekly.lock", holder: "pid 42 since 07:00")
/// ```
public final class RunLock: @unchecked Sendable {
  /// Another process holds the lock.
  public struct Held: RaonError, Equatable {
    public var exitStatus: ExitStatus { .busy }
    /// What the file says about the holder (`pid 1234 since …`), when it says anything.
    public var holder: String?
  }

  /// The lock file cannot be opened or locked.
  public struct Unavailable: RaonError, Equatable {
    public var exitStatus: ExitStatus { .failure }
    public var path: String
    public var reason: String
  }

  /// The path names a file that is not a Raon lock (or a symbolic link): it is left as it is.
  public struct NotALockFile: RaonError, Equatable {
    public var exitStatus: ExitStatus { .config }
    public var path: String
    /// What the file is instead.
    public var found: String
  }

  /// The first line of every lock file Raon makes.
  public static let signature = "raon weekly lock — delete only when no raon weekly runs"

  private let fd: Int32
  /// A file's own lock keeps its descriptor (``acquire(onFileOf:)``).
  private let keepsDescriptor: Bool
  private let key: FileKey?

  private init(fd: Int32, keepsDescriptor: Bool, key: FileKey?) {
    self.fd = fd
    self.keepsDescriptor = keepsDescriptor
    self.key = key
  }

  // MARK: - A lock file of Raon's

  /// Takes the lock at once, or throws ``Held`` (never waits); ``NotALockFile`` when the
  /// path names anything but a lock file Raon made.
  ///
  /// The descriptor is closed on `exec`, so a child process (a browser) cannot keep the lock
  /// after its parent is gone.
  public static func acquire(at path: String, holder: String) throws -> RunLock {
    var fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    if fd < 0 && errno == ENOENT {
      try create(path)
      fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    }
    guard fd >= 0 else {
      let failure = errno
      if failure == ELOOP || isSymbolicLink(path) { throw NotALockFile(path: path, found: "a symbolic link") }
      // A folder is no lock file of Raon's: refused like any other (exit 78), not "unavailable".
      if failure == EISDIR { throw NotALockFile(path: path, found: "a folder") }
      throw Unavailable(path: path, reason: String(cString: strerror(failure)))
    }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      throw NotALockFile(path: path, found: "not a regular file")
    }
    let lines = read(fd)
    guard lines.first == signature || isLegacy(lines) else {
      close(fd)
      throw NotALockFile(path: path, found: lines.first.map { "a file that begins '\(String($0.prefix(40)))'" } ?? "an empty file")
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let failure = errno
      close(fd)
      if failure == EWOULDBLOCK { throw Held(holder: lines.count > 1 ? lines[1] : lines.first.flatMap { isLegacy([$0]) ? $0 : nil }) }
      throw Unavailable(path: path, reason: String(cString: strerror(failure)))
    }
    // Raon's own file, locked: its holder line may be replaced.
    _ = ftruncate(fd, 0)
    write(fd, signature + "\n" + holder + "\n")
    return RunLock(fd: fd, keepsDescriptor: false, key: nil)
  }

  /// Makes the lock file with its signature already in it: written under another name in
  /// the same folder, then linked to `path` (which fails if anything is there by then).
  private static func create(_ path: String) throws {
    let scratch = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).new"
    let fd = open(scratch, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw Unavailable(path: path, reason: String(cString: strerror(errno))) }
    defer { unlink(scratch) }
    write(fd, signature + "\n")
    close(fd)
    if link(scratch, path) != 0 && errno != EEXIST {
      throw Unavailable(path: path, reason: String(cString: strerror(errno)))
    }
  }

  /// A lock file of the Raon before the signature: one line, `pid N on HOST since TIME`.
  private static func isLegacy(_ lines: [String]) -> Bool {
    guard lines.count == 1, let line = lines.first, line.count < 300 else { return false }
    return line.range(of: #"^pid [0-9]+ (on \S+ )?since .+$"#, options: .regularExpression) != nil
  }

  private static func isSymbolicLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
  }

  /// The file's first lines (at most 4 KB read).
  private static func read(_ fd: Int32) -> [String] {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { return [] }
    return String(decoding: buffer[0..<n], as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
  }

  private static func write(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
  }

  // MARK: - The lock a file holds

  /// A file by device and inode: two paths (or links) to one file are one lock.
  private struct FileKey: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  /// This process's descriptors on locked files, and whether the lock is held now.
  private static let opened = Guarded<[FileKey: (fd: Int32, held: Bool)]>([:])

  /// Takes the lock the file at `path` holds — `flock(2)` on the file itself — at once, or
  /// throws ``Held`` (never waits). For an SQLite database: SQLite locks with `fcntl(2)`,
  /// which `flock(2)` does not touch on Linux.
  ///
  /// The descriptor stays open until the process ends, even after the lock is let go:
  /// closing any descriptor of a file drops every `fcntl(2)` lock the process holds on it —
  /// SQLite's own, while its connections use the file.
  public static func acquire(onFileOf path: String) throws -> RunLock {
    var info = stat()
    guard stat(path, &info) == 0 else { throw Unavailable(path: path, reason: String(cString: strerror(errno))) }
    let key = FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    let outcome = opened.withLock { opened -> Taking in
      var entry = opened[key]
      if entry == nil {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return .unavailable(String(cString: strerror(errno))) }
        entry = (fd, false)
      }
      guard var entry else { return .unavailable("no descriptor") }
      opened[key] = entry
      // One holder per process too: the process's own descriptor would take it twice.
      guard !entry.held else { return .held }
      guard flock(entry.fd, LOCK_EX | LOCK_NB) == 0 else {
        let failure = errno
        return failure == EWOULDBLOCK ? .held : .unavailable(String(cString: strerror(failure)))
      }
      entry.held = true
      opened[key] = entry
      return .taken(entry.fd)
    }
    switch outcome {
    case .taken(let fd): return RunLock(fd: fd, keepsDescriptor: true, key: key)
    case .held: throw Held(holder: nil)
    case .unavailable(let reason): throw Unavailable(path: path, reason: reason)
    }
  }

  /// How taking a file's own lock went, under ``opened``'s lock.
  private enum Taking {
    case taken(Int32)
    case held
    case unavailable(String)
  }

  deinit {
    flock(fd, LOCK_UN)
    if keepsDescriptor, let key {
      Self.opened.withLock { $0[key]?.held = false }
    } else {
      close(fd)
    }
  }
}
