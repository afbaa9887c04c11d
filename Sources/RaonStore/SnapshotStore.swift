import GRDB
import RaonCore

/// The SQLite snapshot store. (Skeleton: the ingestion/store issue fills it in.)
public struct SnapshotStore: Sendable {
  let writer: any DatabaseWriter
}
