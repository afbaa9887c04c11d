import Foundation

/// What the gates of `raon weekly` read from the store about two snapshots: programs by
/// region (district, or 시·도 for the national catalog), the programs whose content differs,
/// and each version's content hash (for a catalog not recorded yet, in a dry run). Small
/// answers from the database, never a whole snapshot's programs.
extension SnapshotStoring {
  /// How many programs snapshot `id` holds in each region (its `district` column).
  public func programsByRegion(inSnapshot id: Int64) throws -> [String: Int] {
    let access = storeAccess
    return try access.reading { c in
      _ = try StoreQueries.existingSnapshot(id, c, location: access.location)
      var counts: [String: Int] = [:]
      for row in try c.rows(
        """
        SELECT v.district AS region, CAST(sum(p.copies) AS bigint) AS n
        FROM presence p JOIN program_version v ON v.id = p.version_id
        WHERE \(StoreQueries.holds("p", "?1")) GROUP BY v.district
        """, [.integer(id)])
      {
        counts[try row.get("region", as: String.self)] = try row.get("n", as: Int.self)
      }
      return counts
    }
  }

  /// The programs (by id) with a version in snapshot `id` that snapshot `other` does not
  /// hold: new or changed since `other`, seen from `id`'s side.
  public func programIDs(inSnapshot id: Int64, notIn other: Int64) throws -> Set<String> {
    let access = storeAccess
    return try access.reading { c in
      _ = try StoreQueries.existingSnapshot(id, c, location: access.location)
      _ = try StoreQueries.existingSnapshot(other, c, location: access.location)
      var ids = Set<String>()
      try c.forEachRow(
        """
        SELECT DISTINCT v.program_id AS program_id
        FROM presence p JOIN program_version v ON v.id = p.version_id
        WHERE \(StoreQueries.holds("p", "?1"))
          AND NOT EXISTS (SELECT 1 FROM presence q WHERE q.version_id = p.version_id AND \(StoreQueries.holds("q", "?2")))
        """, [.integer(id), .integer(other)]
      ) { row in
        ids.insert(try row.get("program_id", as: String.self))
        return true
      }
      return ids
    }
  }

  /// Each version of snapshot `id`: its program's id and the SHA-256 of its raw record
  /// (what tells two versions apart).
  public func versionHashes(inSnapshot id: Int64) throws -> [(programID: String, hash: Data)] {
    let access = storeAccess
    return try access.reading { c in
      _ = try StoreQueries.existingSnapshot(id, c, location: access.location)
      var out: [(programID: String, hash: Data)] = []
      try c.forEachRow(
        """
        SELECT v.program_id AS program_id, v.raw_hash AS raw_hash
        FROM presence p JOIN program_version v ON v.id = p.version_id WHERE \(StoreQueries.holds("p", "?1"))
        """, [.integer(id)]
      ) { row in
        out.append((try row.get("program_id"), try row.get("raw_hash")))
        return true
      }
      return out
    }
  }
}

extension NewSnapshot.Entry {
  /// The SHA-256 of the raw record, as the store keeps it (`program_version.raw_hash`).
  public var contentHash: Data { RawContent.hash(of: raw) }
}
