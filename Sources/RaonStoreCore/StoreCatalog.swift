import RaonCore
import RaonErrors

/// Which catalog a store holds (``CatalogProfile/Name``): one catalog a store, recorded in
/// `store_catalog` by its first snapshot, so that Seoul's programs and the national data's
/// events never meet in one history. A store made before the table existed holds Seoul's
/// catalog (its migration says so when it has snapshots).
package enum StoreCatalog {
  /// The table, as each database spells it, and its migration for an existing store.
  package static func migration(_ types: StoreSchema.Types) -> String {
    let integer = StoreSchema.Kind.integer.sql(types)
    let text = StoreSchema.Kind.text.sql(types)
    return """
      -- The catalog this store holds (CatalogProfile.Name: seoul, national): one row, set
      -- by the first recording; a store with snapshots from before holds Seoul's.
      CREATE TABLE store_catalog (
        id \(integer) PRIMARY KEY CHECK (id = 1),
        name \(text) NOT NULL CHECK (name <> '')
      );
      INSERT INTO store_catalog (id, name) SELECT 1, 'seoul' WHERE EXISTS (SELECT 1 FROM snapshot)
      """
  }

  /// The catalog recorded, or `nil` for a store that has recorded nothing yet.
  package static func stored(_ c: some StoreConnection) throws -> String? {
    try c.value("SELECT name FROM store_catalog WHERE id = 1")
  }

  /// Records `name` as the store's catalog when it has none, inside the caller's writing
  /// transaction; refuses another catalog's recording.
  ///
  /// - Throws: ``StoreError/otherCatalog(path:stored:asked:)``, or what the connection throws
  ///   (as ``Failure/database(_:)``, so the caller tells the two apart).
  package static func claim(_ name: CatalogProfile.Name, _ c: some StoreConnection, location: String) throws {
    let found: String?
    do {
      found = try stored(c)
    } catch {
      throw Failure.database(error)
    }
    if let found {
      guard found == name.rawValue else {
        throw StoreError.otherCatalog(path: location, stored: found, asked: name.rawValue)
      }
      return
    }
    do {
      try c.execute("INSERT INTO store_catalog (id, name) VALUES (1, ?1)", [.text(name.rawValue)])
    } catch {
      throw Failure.database(error)
    }
  }

  /// A failure of the database itself while claiming.
  package enum Failure: RaonError {
    package var exitStatus: ExitStatus { .failure }
    case database(any Error)
  }
}

extension SnapshotStoring {
  /// The catalog the store holds; `nil` when nothing was ever recorded.
  public func catalog() throws -> CatalogProfile.Name? {
    let access = storeAccess
    let name = try access.reading { c -> String in try StoreCatalog.stored(c) ?? "" }
    if name.isEmpty { return nil }
    // Which names a Raon knows is the catalog's module's to say (CatalogProfile.choose).
    return CatalogProfile.Name(name)
  }
}
