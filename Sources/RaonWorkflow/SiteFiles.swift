import Foundation
import RaonConcurrency
import RaonCore
import RaonExport

#if canImport(Glibc)
  import Glibc
#endif

/// The file operations of a site build; failures say which path and why.
///
/// Every file is written or linked through the process's ``Interruption`` (as folders are,
/// ``OutputDirectories``): once an interrupt has begun removing the staged site, no page
/// is added to it, so the removal is complete (a build writing thousands of program pages
/// used to refill the folder while it was being removed, issue 37).
///
/// Nothing here follows a symbolic link into an earlier site: entries are read with their
/// own type (`lstat`, `readdir`), and a file is reused only when it is a regular file of
/// the size and SHA-256 the site recorded (``SiteManifest``).
enum SiteFiles {
  /// What a path names, not following a final symbolic link.
  enum Kind: Equatable { case file, folder, link, other, missing }

  static func kind(_ url: URL) -> Kind {
    var st = stat()
    guard lstat(url.path, &st) == 0 else { return .missing }
    switch st.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return .folder
    case S_IFLNK: return .link
    default: return .other
    }
  }

  /// The names in `folder` with their kinds (`nil` when it is not a folder one can read;
  /// a symbolic link to a folder is not opened).
  static func entries(of folder: URL) -> [(name: String, kind: Kind)]? {
    let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    guard let dir = fdopendir(fd) else {
      close(fd)
      return nil
    }
    defer { closedir(dir) }
    var out: [(String, Kind)] = []
    while let entry = readdir(dir) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      if name == "." || name == ".." { continue }
      let kind: Kind
      switch Int32(entry.pointee.d_type) {
      case Int32(DT_REG): kind = .file
      case Int32(DT_DIR): kind = .folder
      case Int32(DT_LNK): kind = .link
      case Int32(DT_UNKNOWN): kind = Self.kind(folder.appendingPathComponent(name))
      default: kind = .other
      }
      out.append((name, kind))
    }
    return out
  }

  /// The size and SHA-256 (hex) of a regular file, read without following a link; `nil`
  /// for anything else or when it cannot be read.
  static func digest(_ url: URL) -> SiteManifest.File? {
    let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
    var hash = SHA256()
    var size = 0
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
      if n < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if n == 0 { break }
      hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
      size += n
    }
    return SiteManifest.File(size: size, sha256: SHA256.hexString(hash.finalize()))
  }

  /// The record of a page raon writes: its size and SHA-256.
  static func digest(of text: String) -> SiteManifest.File {
    SiteManifest.File(size: text.utf8.count, sha256: SHA256.hex(text))
  }

  static func makeDirectory(_ url: URL) throws {
    try attempt(url) { try OutputDirectories.create(url) }
  }

  static func read(_ url: URL) throws -> String {
    try attempt(url) { String(decoding: try Data(contentsOf: url), as: UTF8.self) }
  }

  /// Writes a new file (atomically: a file linked from an earlier site is replaced, not
  /// changed), unless the run is interrupted.
  static func write(_ text: String, to url: URL) throws {
    try attempt(url) {
      try Interruption.process.unlessInterrupted { try Data(text.utf8).write(to: url, options: .atomic) }
    }
  }

  /// `source`, an earlier site's file, at `destination` if it is what the site recorded
  /// (`expected`): hard-linked (copied where links are impossible), then checked where it
  /// now is — a regular file of that size and SHA-256 — so neither a link nor a file
  /// changed since is taken. Returns whether it was; when not, nothing is left at
  /// `destination`.
  static func reuse(_ source: URL, expected: SiteManifest.File, at destination: URL) -> Bool {
    guard kind(source) == .file else { return false }
    let placed: Bool? = try? Interruption.process.unlessInterrupted {
      let fm = FileManager.default
      if (try? fm.linkItem(at: source, to: destination)) != nil { return true }
      return (try? fm.copyItem(at: source, to: destination)) != nil
    }
    guard placed == true else { return false }
    if digest(destination) == expected { return true }
    try? FileManager.default.removeItem(at: destination)
    return false
  }

  /// Removes what is at `url` (a week that could not be reused whole).
  static func remove(_ url: URL) {
    try? FileManager.default.removeItem(at: url)
  }

  private static func attempt<T>(_ url: URL, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as WorkflowError {
      throw error
    } catch is Interruption.Interrupted {
      throw WorkflowError.interrupted
    } catch {
      throw WorkflowError.outputNotWritable(
        path: url.path, reason: (error as NSError).localizedDescription.replacingOccurrences(of: "\n", with: " "))
    }
  }
}
