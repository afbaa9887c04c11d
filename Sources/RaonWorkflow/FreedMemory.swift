#if canImport(Glibc)
  import CMalloc
#endif

/// Keeps the memory a job frees from staying resident in the allocator.
///
/// glibc keeps what threads free in per-thread heaps for reuse, and Raon's steps hand large
/// arrays from one thread to another (a held input recorded beside its comparison, the
/// formats rendered side by side), so a step's garbage would stay resident under the next
/// step's data.
public enum FreedMemory {
  /// Keeps freed memory from piling up in the allocator, for the whole process (called
  /// first thing in `main`):
  /// - four heaps (arenas) instead of glibc's eight per core: each arena keeps its own free
  ///   memory resident; with two, a report's threads queued for the heaps' locks
  ///   (bench/PROFILING.md, "Round four, session 6");
  /// - a fixed threshold (256 KiB) above which a block is mapped on its own and unmapped
  ///   when freed: glibc raises it to the largest block freed so far, so a job's large
  ///   arrays (rows, programs, encoded versions) end up inside the heaps and stay there.
  /// What they cost and save: docs/PERFORMANCE.md, the cost ledger.
  public static func limitHeaps() {
    #if canImport(Glibc)
      _ = mallopt(M_ARENA_MAX, 4)
      _ = mallopt(M_MMAP_THRESHOLD, 256 * 1024)
    #endif
  }
}
