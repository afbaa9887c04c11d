/// The words a catalog's documents are written in, in Korean and English: what its regions,
/// groups and items are called, its name and source, what its figures count, its quality
/// flags and the names of its files. The report's labels (RaonDocument's `ReportLabels`)
/// put these into their sentences; no rendered text is ever rewritten afterwards.
///
/// Seoul's are ``seoul`` (자치구, 분류, 프로그램); the national data's ``national`` (시·도,
/// 제공기관, 행사). A new catalog writes its own value beside its profile.
public struct CatalogWords: Sendable {
  /// A noun in Korean and in English (singular and plural, lower case: a label capitalises
  /// it where it starts a heading).
  public struct Noun: Sendable, Hashable {
    public var ko: String
    public var en: String
    public var enPlural: String

    public init(_ ko: String, _ en: String, plural: String) {
      self.ko = ko
      self.en = en
      self.enPlural = plural
    }
  }

  /// A phrase in Korean and in English.
  public struct Phrase: Sendable, Hashable {
    public var ko: String
    public var en: String

    public init(_ ko: String, _ en: String) {
      self.ko = ko
      self.en = en
    }
  }

  /// What a program's `district` is: 자치구 (district), 시·도 (province).
  public var region: Noun
  /// How regions are counted in Korean: `25개 구`, `17개 시·도`.
  public var regionCounter: String
  /// What a program's `category` is: 분류 (category), 제공기관 (provider).
  public var group: Noun
  /// How groups are counted in Korean: `5개 분류`, and how a group among groups is ranked:
  /// `제공기관 220곳 중` (``groupPlaces``).
  public var groupCounter: String
  /// Ranking one group among the others: `곳` for places or bodies (`제공기관 12곳 중`).
  public var groupPlaces: String
  /// What one item of the catalog is: 프로그램 (program), 행사 (event).
  public var item: Noun
  /// The catalog as a title names it: `서울시 문화행사` (`Seoul cultural events`).
  public var catalog: Phrase
  /// What the catalog lists, without its area: `문화행사` (`cultural events`), for a
  /// pack's title as the office writes it: `종로구 문화행사 주간 현황`.
  public var subject: Phrase
  /// The stem of a delivered file's name, the report's title without spaces:
  /// `서울시_문화행사_주간현황` (`…_2025-08-18_종로구.pdf`).
  public var fileStem: String
  /// The whole the regions are part of, as a possessive: `서울시` (`the city's`).
  public var whole: Phrase
  /// The whole as a link or heading names it: `서울시 전체` (`Whole city`).
  public var wholeArea: Phrase
  /// The source line every document closes with.
  public var sourceLine: Phrase
  /// The workbook's keywords (its document properties).
  public var keywords: Phrase
  /// The day by which 신규 등록 counts a program: `신청일` (`registration day`).
  public var registeredBy: Phrase
  /// What the site's program page calls that day: `등록일` (`Registered`).
  public var registeredOn: Phrase
  /// What counts as a minor change besides text differing only in spacing, in the
  /// glossary's order: `좌표 50m 미만 이동`, `대표 이미지`.
  public var minorChanges: [Phrase]
  /// What a change in the number of an item's rows is called (`회차 수`), for a catalog
  /// whose items are made of rows.
  public var sessions: Phrase
  /// The value of a program whose region is unknown and is no region (`미상`): a chart's
  /// note names it apart, never as one more region; `nil` when every value is a region.
  public var unknownRegion: String?
  /// The English names of the catalog's regions and groups (`종로구` → `Jongno-gu`): an
  /// English document reads them wherever it names one. Empty: names stay as the data has
  /// them.
  public var englishNames: [String: String]
  /// The catalog's quality flags for people (the codes it sets: ``QualityFlags``).
  public var flags: [FlagWords]
  /// Names of files and keys in files: by what a table is named.
  public var files: FileWords
  /// How the catalog's documents are laid out where its names make a difference.
  public var layout: Layout
  /// Column titles of `programs.csv`'s columns where the catalog's own differ from the
  /// titles its fields' labels and its nouns give (the national data's `theme` holds its
  /// 요금정보).
  public var columnTitles: [ProgramColumn: Phrase] = [:]
  /// Whose fixed regions they are, in a message (`Seoul's` 25 districts); empty for a
  /// catalog whose regions its data brings.
  public var regionsOwner = ""

  /// Its fixed regions as a message names them: `Seoul's 25 districts`.
  public func fixedRegionsPhrase(count: Int) -> String {
    "\(regionsOwner.isEmpty ? "the" : regionsOwner) \(count) \(count == 1 ? region.en : region.enPlural)"
  }

  public init(
    region: Noun, regionCounter: String, group: Noun, groupCounter: String, groupPlaces: String, item: Noun,
    catalog: Phrase, subject: Phrase, fileStem: String, whole: Phrase, wholeArea: Phrase, sourceLine: Phrase, keywords: Phrase, registeredBy: Phrase,
    registeredOn: Phrase, minorChanges: [Phrase], sessions: Phrase, unknownRegion: String?,
    englishNames: [String: String], flags: [FlagWords], files: FileWords, layout: Layout
  ) {
    self.region = region
    self.regionCounter = regionCounter
    self.group = group
    self.groupCounter = groupCounter
    self.groupPlaces = groupPlaces
    self.item = item
    self.catalog = catalog
    self.subject = subject
    self.fileStem = fileStem
    self.whole = whole
    self.wholeArea = wholeArea
    self.sourceLine = sourceLine
    self.keywords = keywords
    self.registeredBy = registeredBy
    self.registeredOn = registeredOn
    self.minorChanges = minorChanges
    self.sessions = sessions
    self.unknownRegion = unknownRegion
    self.englishNames = englishNames
    self.flags = flags
    self.files = files
    self.layout = layout
  }

  /// Where the catalog's names decide the layout of a page.
  public struct Layout: Sendable, Hashable {
    /// A pack's name goes on a line of its own under the title in a printed page's header:
    /// long names (`문화체육관광부 국립국악원`) beside the title run into the week.
    public var packNameOnOwnLine: Bool
    /// The changes sheet prints each item's start date: items without an id a person
    /// knows are told apart by it.
    public var changesPrintStartDate: Bool

    public init(packNameOnOwnLine: Bool, changesPrintStartDate: Bool) {
      self.packNameOnOwnLine = packNameOnOwnLine
      self.changesPrintStartDate = changesPrintStartDate
    }
  }
}

/// A quality flag for people: its code (``QualityFlags/named``), a short name and an
/// explanation in Korean and English. The workbook and the documents print these; CSV and
/// JSON keep the code.
public struct FlagWords: Sendable, Hashable {
  public let code: String
  public let koreanName: String
  public let englishName: String
  public let koreanExplanation: String
  public let englishExplanation: String

  public init(code: String, koreanName: String, englishName: String, koreanExplanation: String, englishExplanation: String) {
    self.code = code
    self.koreanName = koreanName
    self.englishName = englishName
    self.koreanExplanation = koreanExplanation
    self.englishExplanation = englishExplanation
  }
}
