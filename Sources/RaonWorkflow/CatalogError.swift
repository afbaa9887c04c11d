import RaonCore
import RaonErrors
import RaonStore

/// Errors about which catalog a command works on (``CatalogProfile``).
public enum CatalogError: RaonError, CustomStringConvertible, Equatable {
  /// `--catalog` named no catalog Raon knows.
  case unknown(String)
  /// The catalog's Open API needs a key in `variable`.
  case missingKey(variable: String, portal: String)
  /// `--catalog` names another catalog than the store holds.
  case storeHolds(store: String, held: CatalogProfile.Name, asked: CatalogProfile.Name)
  /// The store records a catalog this Raon does not ship (a newer Raon's, or a damaged row).
  case unknownHeld(store: String, held: String)

  public var description: String {
    switch self {
    case .unknown(let text):
      let known = CatalogProfile.all.map(\.name.rawValue).joined(separator: ", ")
      return "'\(text)' is not a catalog — use one of \(known)"
    case .missingKey(let variable, let portal):
      return "the Open API needs a key — set the environment variable \(variable) to your key from \(portal) (or use a file instead of --api)"
    case .storeHolds(let store, let held, let asked):
      return "the store at \(store) holds the \(held.rawValue) catalog, not \(asked.rawValue) — a store holds one catalog: give --catalog \(held.rawValue), or use another --db"
    case .unknownHeld(let store, let held):
      return "the store at \(store) names its catalog '\(held)', which this Raon does not know — use the Raon that recorded it, or another --db"
    }
  }
}

extension CatalogError {
  public var exitStatus: ExitStatus {
    switch self {
    case .unknown: return .usage
    case .missingKey, .storeHolds, .unknownHeld: return .failure
    }
  }
}

extension CatalogProfile {
  /// The catalog a command works on: the one `--catalog` names (checked against the
  /// store's), else the store's, else Seoul's.
  ///
  /// - Throws: ``CatalogError/unknown(_:)``, ``CatalogError/storeHolds(store:held:asked:)``,
  ///   or the store's errors.
  public static func choose(_ asked: String?, store: any SnapshotStoring) throws -> CatalogProfile {
    let held = try store.catalog()
    guard let asked else {
      guard let held else { return .seoul }
      guard let profile = known(held) else { throw CatalogError.unknownHeld(store: store.location, held: held.rawValue) }
      return profile
    }
    guard let profile = named(asked) else { throw CatalogError.unknown(asked) }
    if let held, held != profile.name {
      throw CatalogError.storeHolds(store: store.location, held: held, asked: profile.name)
    }
    return profile
  }

  /// The store's entries of a whole batch of records: each record with its program
  /// (Seoul's on every core, the national data's grouped into events).
  func entries(_ records: [RawRecord]) -> [NewSnapshot.Entry] {
    switch normalisation {
    case .perRecord:
      return ProgramNormalizer.normalizeAll(records, profile: self)
    case .sessions:
      let programs = NationalNormalizer.normalize(records, profile: self, work: OnEveryCore())
      return zip(programs, records).map { NewSnapshot.Entry(program: $0, raw: $1) }
    }
  }
}
