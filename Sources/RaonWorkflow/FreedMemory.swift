#if canImport(Glibc)
  import CMalloc
#endif

/// Gives the memory the allocator holds free back to the system, between a job's steps.
///
/// glibc keeps what threads free in per-thread heaps for reuse, and Raon's threads hand
/// large buffers from one to another (reading ahead, the workbook, parallel passes), so a
/// step's garbage stays resident under the next step's data. After the figures' pass over a
/// million programs that was 0.1–0.2 GiB of the report's peak (docs/PERFORMANCE.md);
/// returning it costs milliseconds (the 20,000-program weekly job: no change measured).
public enum FreedMemory {
  /// Keeps freed memory from piling up in the allocator, for the whole process (called
  /// first thing in `main`):
  /// - four heaps (arenas) instead of glibc's eight per core: each arena keeps its own free
  ///   memory resident; with two, a report's threads queued for the heaps' locks
  ///   (bench/PROFILING.md, "Round four, session 6");
  /// - a fixed threshold (256 KiB) above which a block is mapped on its own and unmapped
  ///   when freed: glibc raises it to the largest block freed so far, so a job's large
  ///   arrays (rows, programs, encoded versions) end up inside the heaps and stay there.
  /// What they save: docs/PERFORMANCE.md ("The national weekly job").
  public static func limitHeaps() {
    #if canImport(Glibc)
      _ = mallopt(M_ARENA_MAX, 4)
      _ = mallopt(M_MMAP_THRESHOLD, 256 * 1024)
    #endif
  }

  static func release() {
    #if canImport(Glibc)
      _ = malloc_trim(0)
    #endif
  }
}
