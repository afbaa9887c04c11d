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
enum FreedMemory {
  static func release() {
    #if canImport(Glibc)
      _ = malloc_trim(0)
    #endif
  }
}
