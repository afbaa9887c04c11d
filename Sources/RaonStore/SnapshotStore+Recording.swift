import Foundation
import GRDB
import RaonCore
import RaonStoreCore

// MARK: - Recording

extension SnapshotStore {
  /// Records several snapshots in one transaction: all of them or none.
  ///
  /// ```swift
  /// let infos = try store.recordingTogether { recorder in
  ///   try files.map { file in try recorder.record(takenAt: file.time, source: file.name) { … } }
  /// }
  /// ```
  ///
  /// Each ``SnapshotRecording/record(takenAt:source:_:)`` sees the ones recorded before it in
  /// the same call as the latest snapshots. Anything thrown — by a producer, by `body`, by
  /// the store, or ``ShrinkRefused`` — rolls every one of them back and is rethrown (store
  /// failures as ``Error``). A process killed meanwhile leaves the store as it was.
  public func recordingTogether<T>(_ body: (_ recorder: any SnapshotRecording) throws -> T) throws -> T {
    var passThrough: Swift.Error?
    do {
      return try translatingErrors(Error.recordFailed) {
        try writer.writeWithoutTransaction { db in
          var result: T?
          try db.inTransaction(.immediate) {
            let recorder = StoreRecorder(
              location: path, shrinkGuard: shrinkGuard, recordsCatalog: try db.tableExists("store_catalog")
            ) { try SQLiteVersions(db) }
            do {
              result = try body(recorder)
            } catch {
              // The store's own (database) failures are translated below; anything else
              // (a producer's, a refusal) goes out unchanged.
              if !recorder.storeFailed { passThrough = error }
              throw error
            }
            return .commit
          }
          guard let result else { throw DecodingFailure("the recording returned nothing") }
          return result
        }
      }
    } catch {
      if let passThrough { throw passThrough }
      throw error
    }
  }

  /// `date` as a snapshot stores it (to the millisecond): the `takenAt` that ``record(_:)``
  /// returns for it; `nil` outside the years 1-9999.
  public static func storedTime(_ date: Date) -> Date? {
    ISOTimestamp.format(date).flatMap(ISOTimestamp.parse)
  }
}
