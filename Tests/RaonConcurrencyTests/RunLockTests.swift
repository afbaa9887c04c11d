import Foundation
import RaonConcurrency
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The locks of `raon weekly`: a lock file is only ever one Raon made (anything else at its
/// path is refused and left as it is), and a file's own lock is one lock whatever path
/// reaches the file.
@Suite struct RunLockTests {
  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("raon-runlock-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func aLockFileIsMadeWithItsSignatureAndHeldOnceAtATime() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("weekly.lock").path
    var lock: RunLock? = try RunLock.acquire(at: path, holder: "pid 1 on h since 07:00")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == RunLock.signature + "\npid 1 on h since 07:00\n")
    // The kernel's lock is per open file: a second acquire (another descriptor) is refused.
    let held = #expect(throws: RunLock.Held.self) { try RunLock.acquire(at: path, holder: "pid 2") }
    #expect(held?.holder == "pid 1 on h since 07:00")
    lock = nil
    _ = lock
    let again = try RunLock.acquire(at: path, holder: "pid 3 on h since 08:00")
    withExtendedLifetime(again) {}
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("pid 3 on h since 08:00\n"))
    // No scratch file is left beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["weekly.lock"])
  }

  @Test func anythingButARaonLockFileIsRefusedAndLeftAsItIs() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("raon.sqlite")
    let bytes = Data("SQLite format 3\u{0}".utf8) + Data(repeating: 7, count: 4_000)
    try bytes.write(to: store)
    let refused = #expect(throws: RunLock.NotALockFile.self) { try RunLock.acquire(at: store.path, holder: "pid 1") }
    #expect(refused?.found.hasPrefix("a file that begins 'SQLite format 3") == true, "\(String(describing: refused))")
    #expect(try Data(contentsOf: store) == bytes)

    let empty = dir.appendingPathComponent("empty")
    try Data().write(to: empty)
    let emptyRefused = #expect(throws: RunLock.NotALockFile.self) { try RunLock.acquire(at: empty.path, holder: "x") }
    #expect(emptyRefused?.found == "an empty file")
    #expect(try Data(contentsOf: empty).isEmpty)

    let link = dir.appendingPathComponent("planted.lock")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: store)
    let linkRefused = #expect(throws: RunLock.NotALockFile.self) { try RunLock.acquire(at: link.path, holder: "x") }
    #expect(linkRefused?.found == "a symbolic link")
    // Even a link to a real lock file: the path must be the file itself.
    let real = dir.appendingPathComponent("real.lock").path
    withExtendedLifetime(try RunLock.acquire(at: real, holder: "x")) {}
    try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("to-real.lock").path, withDestinationPath: real)
    #expect(throws: RunLock.NotALockFile.self) { try RunLock.acquire(at: dir.appendingPathComponent("to-real.lock").path, holder: "x") }
    #expect(try Data(contentsOf: store) == bytes)

    let folder = dir.appendingPathComponent("a-folder")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // A folder is refused as no lock file of Raon's (exit 78), not "unavailable" (exit 1).
    let folderRefused = #expect(throws: RunLock.NotALockFile.self) { try RunLock.acquire(at: folder.path, holder: "x") }
    #expect(folderRefused?.found == "a folder")
  }

  @Test func theLockFileOfTheRaonBeforeTheSignatureIsTakenAsRaons() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("weekly.lock").path
    try Data("pid 4242 on web1 since 2025-08-18 07:00 KST\n".utf8).write(to: URL(fileURLWithPath: path))
    withExtendedLifetime(try RunLock.acquire(at: path, holder: "pid 1 on h since 07:00")) {}
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix(RunLock.signature))
  }

  @Test func aFilesOwnLockIsOneWhateverPathReachesItAndLeavesTheFileAsItWas() throws {
    let dir = try Self.folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("raon.sqlite")
    let bytes = Data((0..<5_000).map { UInt8($0 % 251) })
    try bytes.write(to: store)
    let link = dir.appendingPathComponent("link.sqlite")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: store)
    let hard = dir.appendingPathComponent("hard.sqlite")
    #expect(Glibc.link(store.path, hard.path) == 0)
    var lock: RunLock? = try RunLock.acquire(onFileOf: store.path)
    for other in [store, link, hard] {
      #expect(throws: RunLock.Held.self) { try RunLock.acquire(onFileOf: other.path) }
    }
    lock = nil
    _ = lock
    withExtendedLifetime(try RunLock.acquire(onFileOf: link.path)) {}
    #expect(try Data(contentsOf: store) == bytes)
  }
}
