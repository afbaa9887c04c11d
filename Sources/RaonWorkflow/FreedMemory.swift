#if canImport(Glibc)
  import CMalloc
#endif

/// Gives the memory the allocator holds free back to the system, between a job's steps.
///
/// glibc keeps what threads free in per-thread heaps for reuse, and Raon's threads hand
/// large buffers from one to another (reading ahead, the workbook, parallel passes), so a
/// step's garbage stays resident under the next step's data. After the figures' pass over a
/// million programs that was ~0.3 GiB (docs/PERFORMANCE.md); returning it costs
/// milliseconds.
enum FreedMemory {
  static func release() {
    #if canImport(Glibc)
      _ = malloc_trim(0)
    #endif
  }
}
