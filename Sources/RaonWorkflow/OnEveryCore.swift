import RaonConcurrency
import RaonCore

/// Pure per-item work of the pure modules (``IndexedWork``) spread over the cores
/// (``ParallelWork``), from as few items as Seoul's normalisation finds worth it.
struct OnEveryCore: IndexedWork {
  func map<T>(_ count: Int, _ body: (Int) -> T) -> [T] {
    ParallelWork.map(count, minimumCount: ProgramNormalizer.parallelFrom, body)
  }
}
