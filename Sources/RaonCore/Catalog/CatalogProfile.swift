/// Everything that makes one catalog a catalog of its own: its fields and their labels, the
/// fields it cannot do without, its regions, how a program is identified, where its
/// coordinates may lie, its Open API's shape, and the line that credits its source.
///
/// The pipeline takes a profile as a value (the readers check a header against it, the
/// normalisation reads its rules from it, the analysis names groups with it) rather than
/// branching on the catalog here and there. Seoul's catalog is ``seoul``; the national
/// standard data is ``national``.
///
/// ```swift
/// let profile = CatalogProfile.named("national")      // CatalogProfile.national
/// profile.label(of: .title)                            // "행사명"
/// ```
public struct CatalogProfile: Sendable {
  /// A catalog's name, as `--catalog` takes it and the store records it. Open, not an
  /// enumeration: a profile is a value, and the pipeline asks it what it needs (one built in
  /// the tests goes through the whole pipeline under its own name).
  public struct Name: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// 서울시 문화행사 정보 (Seoul Open Data Plaza, `culturalEventInfo`).
    public static let seoul = Name("seoul")
    /// 전국공연행사정보표준데이터 (the public data portal's standard data).
    public static let national = Name("national")
  }

  /// How a program gets its id.
  public enum IdentityRule: Sendable, Hashable {
    /// `cult:NNNNNN` from the `cultcode=` of the portal URL, else `h:` + 16 hex digits of
    /// SHA-256 over title, place and start date (``ProgramID``).
    case portalCode
    /// No id in the source: the natural key of docs/NATIONAL.md (``NationalKey``), and the
    /// rows that share it are the sessions of one event.
    case naturalKey
  }

  /// How records become programs.
  public enum Normalisation: Sendable, Hashable {
    /// Each record on its own (``ProgramNormalizer``): a file can be streamed.
    case perRecord
    /// The whole download at once: rows are grouped into events by their key
    /// (``NationalNormalizer``).
    case sessions
  }

  public let name: Name
  /// The dataset's title as its portal gives it.
  public let title: String
  public let englishTitle: String
  /// The fields of the catalog, with the labels of its CSV and its Open API.
  public let fields: [CatalogField]
  /// A header without one of these is not this catalog.
  public let required: [CanonicalField]
  /// What a complete download carries: a known field no header label matched is named in
  /// a warning (fields that came later, like Seoul's 문의, are not expected).
  public let expected: [CanonicalField]
  public let regions: RegionScheme
  public let identity: IdentityRule
  public let normalisation: Normalisation
  public let coordinates: CoordinateBounds
  public let api: CatalogAPIShape
  /// The attribution every report carries ("출처: …").
  public let sourceLine: String
  public let licence: String
  /// The words its documents are written in (CatalogWords+Seoul.swift, +National.swift).
  public var words: CatalogWords
  /// The tables its report adds to the whole catalog's statistics.
  public var extras: [ReportExtra]
  /// Its own section of `raon.toml` (`[national]`), or `nil` when its settings are the
  /// file's top-level keys (Seoul's `api_base`).
  public var configSection: String?
  /// The file name of the download Raon ships for it (recorded into an empty store by
  /// `raon report`), or `nil`: none is shipped.
  public var bundledSample: String?

  public init(
    name: Name, title: String, englishTitle: String, fields: [CatalogField], required: [CanonicalField],
    expected: [CanonicalField], regions: RegionScheme, identity: IdentityRule, normalisation: Normalisation,
    coordinates: CoordinateBounds, api: CatalogAPIShape, sourceLine: String, licence: String,
    words: CatalogWords = .seoul, extras: [ReportExtra] = [], configSection: String? = nil, bundledSample: String? = nil
  ) {
    self.name = name
    self.title = title
    self.englishTitle = englishTitle
    self.fields = fields
    self.required = required
    self.expected = expected
    self.regions = regions
    self.identity = identity
    self.normalisation = normalisation
    self.coordinates = coordinates
    self.api = api
    self.sourceLine = sourceLine
    self.licence = licence
    self.words = words
    self.extras = extras
    self.configSection = configSection
    self.bundledSample = bundledSample
  }

  /// The profile `--catalog` names, or `nil`.
  public static func named(_ name: String) -> CatalogProfile? {
    known(Name(name.lowercased()))
  }

  /// The profile of a catalog Raon ships, or `nil`.
  public static func known(_ name: Name) -> CatalogProfile? {
    all.first { $0.name == name }
  }

  /// Every profile Raon ships, the default first (Seoul's: a new store's catalog, as
  /// `--help` says): a new catalog is its profile, its words, and its place here.
  public static let all: [CatalogProfile] = [seoul, national]

  /// The label of a field in this catalog's downloads (its CSV header), for messages.
  public func label(of field: CanonicalField) -> String {
    fields.first { $0.field == field }?.label ?? field.rawValue
  }

  /// What an English report calls a field: its English label, else its download's label.
  public func englishLabel(of field: CanonicalField) -> String {
    fields.first { $0.field == field }.map { $0.englishLabel ?? $0.label } ?? field.rawValue
  }

  /// The fields of `required` that a header with these fields lacks.
  public func missingRequired(in present: Set<CanonicalField>) -> [CanonicalField] {
    required.filter { !present.contains($0) }
  }

  /// The catalog a header belongs to: the first profile whose required fields it carries,
  /// or `nil` when it carries none's.
  public static func detect(_ present: Set<CanonicalField>) -> CatalogProfile? {
    all.first { $0.missingRequired(in: present).isEmpty }
  }

  /// For a header that is no catalog's, the profile it comes closest to (fewest required
  /// fields missing; Seoul on a tie) and the labels of what it lacks.
  public static func closest(_ present: Set<CanonicalField>) -> (profile: CatalogProfile, missing: [String]) {
    var best = seoul
    var bestMissing = seoul.missingRequired(in: present)
    for profile in all.dropFirst() {
      let missing = profile.missingRequired(in: present)
      if missing.count < bestMissing.count {
        best = profile
        bestMissing = missing
      }
    }
    return (best, bestMissing.map(best.label(of:)))
  }
}

/// One field of a catalog: its meaning and what the catalog's downloads call it.
public struct CatalogField: Sendable, Hashable {
  public let field: CanonicalField
  /// The Korean header of the portal's CSV download.
  public let label: String
  /// The key of the catalog's Open API rows.
  public let apiKey: String
  /// What an English report calls the field (`--lang en`), where the catalog's own label
  /// is Korean; `nil`: its report's English words come from elsewhere (Seoul's columns).
  public let englishLabel: String?

  public init(_ field: CanonicalField, _ label: String, _ apiKey: String, english: String? = nil) {
    self.field = field
    self.label = label
    self.apiKey = apiKey
    self.englishLabel = english
  }
}
