import Foundation
import RaonConcurrency

#if canImport(Glibc)
  import Glibc
#endif

/// A program started in a process group of its own, with a clean signal mask, so that the
/// whole group (the program and every process it started) can be ended together.
///
/// Foundation's `Process` passes on the calling thread's blocked signals: Chromium started
/// from a worker thread had TERM, INT and HUP blocked, and a hanging one's child outlived
/// the timeout's kill (issue 27). Here every signal is unblocked and set to its default
/// action in the child, it leads a new group, it inherits no descriptor but 0–2 and
/// those given, and no secret of Raon's environment (``ChildEnvironment``).
final class ChildProcessGroup: Sendable {
  let pid: pid_t
  /// The status once ``end(grace:)`` has reaped the program.
  private let reaped = Guarded<Int32?>(nil)

  /// Starts `executable` with `arguments`.
  ///
  /// - Parameters:
  ///   - descriptors: Descriptors of this process to give the child, by the number it sees
  ///     them as (e.g. `[3: socket, 4: socket]`); standard input is `/dev/null`.
  ///   - output: Where the child's standard output and error go.
  ///   - environment: The child's whole environment, but its secrets (they are left out
  ///     here, whoever the caller is).
  init(
    executable: String, arguments: [String], descriptors: [Int32: Int32], output: Int32,
    environment: [String: String]
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }

    // Each source is first copied above every target (close-on-exec), so that no dup2
    // overwrites a source still to be copied, and none is its own target (a dup2 onto
    // itself would leave it close-on-exec).
    let firstFree = (descriptors.keys.max() ?? 2) + 1
    var copies: [Int32] = []
    defer { for fd in copies { Glibc.close(fd) } }
    func raised(_ fd: Int32) throws -> Int32 {
      let copy = fcntl(fd, F_DUPFD_CLOEXEC, max(firstFree, 10))
      guard copy >= 0 else { throw Rename.Failure(code: errno) }
      copies.append(copy)
      return copy
    }
    let out = try raised(output)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, out, 1)
    posix_spawn_file_actions_adddup2(&actions, out, 2)
    for (target, source) in descriptors.sorted(by: { $0.key < $1.key }) {
      posix_spawn_file_actions_adddup2(&actions, try raised(source), target)
    }
    Self.closeFrom(&actions, firstFree)

    var empty = sigset_t()
    sigemptyset(&empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

    let argv = ([executable] + arguments).map { strdup($0) }
    let envp = ChildEnvironment.withoutSecrets(environment).map { strdup("\($0.key)=\($0.value)") }
    defer {
      for p in argv { free(p) }
      for p in envp { free(p) }
    }
    var pid: pid_t = 0
    let status = (argv + [nil]).withUnsafeBufferPointer { a in
      (envp + [nil]).withUnsafeBufferPointer { e -> Int32 in
        guard let arguments = a.baseAddress, let variables = e.baseAddress else { return EINVAL }
        return posix_spawn(&pid, executable, &actions, &attributes, arguments, variables)
      }
    }
    guard status == 0 else { throw Rename.Failure(code: status) }
    self.pid = pid
  }

  /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), looked up at run time as
  /// Swift's Glibc module may not declare it; without it, descriptors are closed one by one.
  private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ first: Int32) {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    if let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "posix_spawn_file_actions_addclosefrom_np") {
      let function = unsafeBitCast(symbol, to: CloseFrom.self)
      if function(&actions, first) == 0 { return }
    }
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for fd in open.compactMap(Int32.init) where fd >= first {
      posix_spawn_file_actions_addclose(&actions, fd)
    }
  }

  /// The exit status (or 128 + signal) once the program has ended, else `nil`; the
  /// process is not reaped, so its id (and its group's) stays taken until ``end()``.
  func exitStatus() -> Int32? {
    // Under the lock: ``end(grace:)`` must not reap the program while it is looked at.
    reaped.withLock { reaped in
      if let reaped { return reaped }
      var info = siginfo_t()
      guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return -1 }
      let child = info._sifields._sigchld
      guard child.si_pid == pid else { return nil }
      return info.si_code == Int32(CLD_EXITED) ? child.si_status : 128 + child.si_status
    }
  }

  /// Waits up to `seconds` for the program to end; its status, or `nil` if it is running.
  func waitForExit(_ seconds: TimeInterval) -> Int32? {
    var status: Int32?
    Polling.until(timeout: seconds, every: 0.01) {
      status = exitStatus()
      return status != nil
    }
    return status
  }

  /// Ends every process of the group (TERM, then KILL after `grace` seconds if the
  /// program itself still runs) and reaps the program. Safe to call more than once.
  func end(grace: TimeInterval = 2) {
    if exitStatus() == nil {
      killpg(pid, SIGTERM)
      _ = waitForExit(grace)
    }
    // Whatever the program left behind in its group (a child holding its pipes).
    killpg(pid, SIGKILL)
    _ = waitForExit(5)
    reaped.withLock { reaped in
      guard reaped == nil else { return }
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid {
        reaped = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
      }
    }
  }
}
