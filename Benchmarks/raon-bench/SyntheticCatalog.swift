import Foundation
import RaonCore

/// A seeded, deterministic catalog shaped like the real sample (2024-09-09, 4,998 programs):
/// its 16 categories at their real frequencies, the 25 districts at theirs plus ~1% 미상,
/// ~64% free, fee texts in the portal's styles (empty in ~53% of rows), mostly one-day
/// programs with some weeks, months and a few running to 2099-12-31, and text of realistic
/// lengths.
///
/// The same seed gives the same catalog both as normalised ``Program``s and as the portal's
/// 22-column CSV, so a reader benchmark can check what it parsed against what was written.
///
/// ```swift
/// let programs = SyntheticCatalog.programs(count: 1_000_000, seed: 2024)
/// let csv = SyntheticCatalog.csvText(count: 10_000, seed: 2024)
/// ```
enum SyntheticCatalog {
  /// The portal's CSV header, in its column order.
  static let header = [
    "분류", "자치구", "공연/행사명", "날짜/시간", "장소", "기관명", "이용대상", "이용요금", "출연자정보",
    "프로그램소개", "기타내용", "홈페이지 주소", "대표이미지", "신청일", "시민/기관", "시작일", "종료일",
    "테마분류", "위도(X좌표)", "경도(Y좌표)", "유무료", "문화포털상세URL",
  ]

  /// `count` programs generated from `seed`.
  static func programs(count: Int, seed: UInt64) -> [Program] {
    var generator = RecordGenerator(seed: seed)
    var programs: [Program] = []
    programs.reserveCapacity(count)
    for _ in 0..<count { programs.append(generator.next().program) }
    return programs
  }

  /// The same catalog as ``programs(count:seed:)``, as CSV text (header line first, every
  /// field quoted, CRLF line ends as the portal writes them).
  static func csvText(count: Int, seed: UInt64) -> String {
    var text = ""
    forEachCSVLine(count: count, seed: seed) { text += $0 }
    return text
  }

  /// The CSV as UTF-8 bytes, optionally with a byte order mark (the portal's UTF-8 files
  /// have one; spreadsheet programs add one too).
  static func csvUTF8(count: Int, seed: UInt64, byteOrderMark: Bool = true) -> [UInt8] {
    var bytes: [UInt8] = byteOrderMark ? [0xEF, 0xBB, 0xBF] : []
    forEachCSVLine(count: count, seed: seed) { bytes.append(contentsOf: $0.utf8) }
    return bytes
  }

  /// Writes the CSV (UTF-8 with BOM) to a file without holding it all in memory.
  static func writeCSV(to url: URL, count: Int, seed: UInt64) throws {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var buffer: [UInt8] = [0xEF, 0xBB, 0xBF]
    buffer.reserveCapacity(1 << 20)
    var failure: Error?
    forEachCSVLine(count: count, seed: seed) { line in
      buffer.append(contentsOf: line.utf8)
      if buffer.count >= 1 << 20, failure == nil {
        do { try handle.write(contentsOf: buffer) } catch { failure = error }
        buffer.removeAll(keepingCapacity: true)
      }
    }
    if let failure { throw failure }
    try handle.write(contentsOf: buffer)
  }

  /// The catalog a later snapshot would hold: about `rate` of the programs removed, as many
  /// changed (end date extended, title amended), and as many new ones added with fresh ids.
  static func churned(_ programs: [Program], rate: Double, seed: UInt64) -> [Program] {
    var random = SplitMix64(seed: seed)
    var result: [Program] = []
    result.reserveCapacity(programs.count + Int(Double(programs.count) * rate) + 1)
    let third = rate / 3
    for var program in programs {
      let r = random.unit()
      if r < third { continue }
      if r < 2 * third {
        program.title += " (연장)"
        program.endDate = program.endDate?.adding(days: 7)
      }
      result.append(program)
    }
    // New programs take cultcodes beyond any the base catalog used.
    var generator = RecordGenerator(seed: seed ^ 0x5EED, firstCultcode: 900_000_000)
    for _ in 0..<Int(Double(programs.count) * third) { result.append(generator.next().program) }
    return result
  }

  /// Calls `body` with the header line, then one line per record.
  static func forEachCSVLine(count: Int, seed: UInt64, _ body: (String) -> Void) {
    body(csvLine(header))
    var generator = RecordGenerator(seed: seed)
    for _ in 0..<count { body(csvLine(generator.next().fields)) }
  }

  static func csvLine(_ fields: [String]) -> String {
    var line = ""
    for (i, field) in fields.enumerated() {
      if i > 0 { line += "," }
      line += "\""
      // A byte scan: Foundation's `contains` on String was most of the generation time.
      line += field.utf8.contains(UInt8(ascii: "\"")) ? field.replacingOccurrences(of: "\"", with: "\"\"") : field
      line += "\""
    }
    return line + "\r\n"
  }
}

// MARK: - Records

/// One synthetic row: the 22 source fields and the program they normalise to.
struct SyntheticRecord {
  var fields: [String]
  var program: Program
}

/// Draws records one after another from a seed.
struct RecordGenerator {
  private var random: SplitMix64
  private var cultcode: Int

  init(seed: UInt64, firstCultcode: Int = 100_000) {
    random = SplitMix64(seed: seed)
    cultcode = firstCultcode
  }

  mutating func next() -> SyntheticRecord {
    // Increasing with gaps, like the portal's codes; never repeated.
    cultcode += 1 + random.below(3)
    let category = Pools.copy(random.weighted(Pools.categories))
    let districtName = random.weighted(Pools.districts)
    let district = districtName.isEmpty ? District.unknown : Pools.copy(districtName)
    let title = makeTitle()
    let place = random.pick(Pools.places)
    let organizer = random.pick(Pools.organizers)
    let audience = random.pick(Pools.audiences)
    let isFree = random.unit() < 0.64
    let fee = makeFee(isFree: isFree)
    let (start, end) = makeDates()
    let registered = start.adding(days: -(7 + random.below(200)))
    let theme = random.weighted(Pools.themes)
    let coordinates: (Double, Double)? =
      random.unit() < 0.005
      ? nil
      : (
        (37.45 + Double(random.below(22_000_000)) / 100_000_000),
        (126.80 + Double(random.below(38_000_000)) / 100_000_000)
      )
    let portalURL =
      "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=\(cultcode)&menuNo=20000\(8 + random.below(2))"
    let orgLink = random.pick(Pools.orgLinkPrefixes) + String(10_000 + random.below(90_000))
    let imageURL =
      "https://culture.seoul.go.kr/cmmn/file/getImage.do?atchFileId=\(random.hex(32))&thumb=Y"
    let performer = random.unit() < 0.15 ? random.pick(Pools.performers) : ""
    let introduction = random.unit() < 0.12 ? random.pick(Pools.introductions) : ""
    let etc = random.unit() < 0.05 ? "사전 신청 필수, 선착순 마감" : ""
    let citizenOrInstitution = random.unit() < 0.92 ? "기관" : "시민"

    var flags: QualityFlags = []
    if districtName.isEmpty { flags.insert(.districtMissing) }
    if coordinates == nil { flags.insert(.coordsMissing) }
    if end < start { flags.insert(.endBeforeStart) }

    let startText = Pools.iso(start)
    let endText = Pools.iso(end)
    let fields = [
      category, districtName, title, startText + "~" + endText, place, organizer, audience,
      fee.text, performer, introduction, etc, orgLink, imageURL, Pools.iso(registered),
      citizenOrInstitution, startText + " 00:00:00.0", endText + " 00:00:00.0", theme,
      coordinates.map { "\($0.0)" } ?? "", coordinates.map { "\($0.1)" } ?? "",
      isFree ? "무료" : "유료", portalURL,
    ]
    let program = Program(
      id: "cult:\(cultcode)", title: title, category: category, district: district, place: place,
      organizer: organizer, audience: audience, feeText: fee.text, isFree: isFree,
      feeMinKRW: fee.min, feeMaxKRW: fee.max, startDate: start, endDate: end, theme: theme,
      latitude: coordinates?.0, longitude: coordinates?.1, portalURL: portalURL,
      orgLink: orgLink, imageURL: imageURL, registeredOn: registered, qualityFlags: flags)
    return SyntheticRecord(fields: fields, program: program)
  }

  private mutating func makeTitle() -> String {
    var title = random.pick(Pools.titlePrefixes)
    title += random.pick(Pools.titleSubjects)
    title += random.pick(Pools.titleLinks)
    title += random.pick(Pools.titleSuffixes)
    title += random.pick(Pools.titleExtras)
    return title
  }

  private mutating func makeFee(isFree: Bool) -> (text: String, min: Int?, max: Int?) {
    if isFree {
      // Of the real free rows, ~83% leave 이용요금 empty.
      let r = random.unit()
      return (r < 0.83 ? "" : r < 0.97 ? "무료" : "무료 (사전예약)", 0, 0)
    }
    let r = random.unit()
    if r < 0.08 { return ("", nil, nil) }
    if r < 0.13 { return ("현장 문의", nil, nil) }
    let prices = Pools.prices
    let low = random.below(prices.count - 3)
    switch random.below(5) {
    case 0:
      // Single prices reach the top of the list (150,000원 and more, as in the sample).
      let only = random.below(prices.count)
      return ("전석 \(Pools.won(prices[only]))", prices[only], prices[only])
    case 1:
      // `R석 11만원 /S석 9만원` style, in units of 10,000 won.
      let high = low + 1 + random.below(2)
      let r = (prices[high] / 10_000) * 10_000
      let s = (prices[low] / 10_000) * 10_000
      guard s > 0 else { return ("전석 \(Pools.won(prices[low]))", prices[low], prices[low]) }
      return ("R석 \(r / 10_000)만원 /S석 \(s / 10_000)만원", s, r)
    case 2:
      let mid = low + 1
      let high = low + 2
      return (
        "R \(Pools.won(prices[high])) / S \(Pools.won(prices[mid])) / A \(Pools.won(prices[low]))",
        prices[low], prices[high]
      )
    case 3:
      let high = low + 3
      return ("\(Pools.won(prices[low]))~\(Pools.won(prices[high]))", prices[low], prices[high])
    default:
      return ("일반 \(Pools.won(prices[low + 1])), 청소년 \(Pools.won(prices[low]))", prices[low], prices[low + 1])
    }
  }

  private mutating func makeDates() -> (CalendarDay, CalendarDay) {
    // Starts from 2023-09 to 2024-12, most in 2024-03…2024-09 like the sample.
    let base = Pools.epoch2023September
    let start =
      random.unit() < 0.7
      ? base.adding(days: 180 + random.below(200))
      : base.adding(days: random.below(480))
    let r = random.unit()
    let days: Int
    switch r {
    case ..<0.451: days = 1
    case ..<0.578: days = 2 + random.below(6)
    case ..<0.804: days = 8 + random.below(23)
    case ..<0.936: days = 31 + random.below(60)
    case ..<0.993: days = 91 + random.below(275)
    case ..<0.996: days = 366 + random.below(400)
    case ..<0.999:
      // Open-ended programs the portal lists as running until 2099-12-31.
      return (start, Pools.year2099End)
    default:
      // End before start: a data-entry error the sample has six of.
      return (start, start.adding(days: -(1 + random.below(30))))
    }
    return (start, start.adding(days: days - 1))
  }
}

// MARK: - Pools of realistic values

enum Pools {
  /// The sample's categories with their counts (of 4,998).
  static let categories: [(String, Int)] = [
    ("교육/체험", 1826), ("전시/미술", 785), ("클래식", 680), ("콘서트", 350), ("축제-문화/예술", 217),
    ("국악", 166), ("연극", 161), ("기타", 159), ("영화", 142), ("뮤지컬/오페라", 138),
    ("독주/독창회", 120), ("무용", 100), ("축제-기타", 76), ("축제-전통/역사", 37),
    ("축제-자연/경관", 21), ("축제-시민화합", 20),
  ]

  /// The sample's districts with their counts; "" is an empty 자치구 (→ 미상), ~1%.
  static let districts: [(String, Int)] = [
    ("종로구", 1273), ("중구", 468), ("은평구", 278), ("마포구", 271), ("송파구", 240),
    ("강북구", 218), ("노원구", 207), ("구로구", 204), ("서초구", 202), ("성동구", 173),
    ("강남구", 168), ("동대문구", 158), ("광진구", 145), ("용산구", 137), ("성북구", 125),
    ("도봉구", 101), ("양천구", 93), ("관악구", 86), ("강동구", 85), ("영등포구", 84),
    ("강서구", 68), ("", 52), ("중랑구", 48), ("금천구", 42), ("서대문구", 37), ("동작구", 35),
  ]

  static let themes: [(String, Int)] = [
    ("기타", 3757), ("어린이/청소년 문화행사", 624), ("", 352), ("가족 문화행사", 172),
    ("어르신 문화행사", 41), ("문화가 있는 날", 41), ("여성 문화행사", 11),
  ]

  static let titlePrefixes = [
    "2024 ", "[마포문화재단] ", "[세종문화회관] ", "[서울시립미술관] ", "제12회 ", "[노원구립도서관] ", "", "",
  ]
  static let titleSubjects = [
    "파리나무십자가 소년합창단", "서울시합창단", "김동현 바이올린", "청소년 국악관현악단", "한여름 밤의 꿈",
    "가을 정원 산책", "우리 동네 이야기", "어린이 도자기 만들기", "전통 한지 공예", "북촌 한옥마을 탐방",
    "서울 일러스트코리아", "시민 오케스트라", "현대미술 작가 5인", "한강 달빛 야시장", "K-클래식 갈라",
  ]
  static let titleLinks = [" ", " ", " 와 함께하는 ", " 초청 ", " 특별 "]
  static let titleSuffixes = [
    "특별초청공연", "리사이틀", "송년음악회", "기획전시", "체험 교실", "정기연주회", "가족 뮤지컬", "문화축제",
    "영화 상영회", "워크숍", "오페라 갈라", "전통 공연",
  ]
  static let titleExtras = ["", "", " II", " (사전예약)", " - 찾아가는 공연", " 〈봄〉", " 시즌2"]

  static let places = [
    "예술의전당 콘서트홀", "세종대극장", "마포아트센터 아트홀맥", "서울시립미술관 서소문본관",
    "국립극장 해오름극장", "노원어린이도서관 3층 강의실", "양재 aT센터", "남산골한옥마을",
    "서울광장", "은평역사한옥박물관 체험실", "구로아트밸리 예술극장", "북서울꿈의숲 아트센터 퍼포먼스홀",
  ]
  static let organizers = [
    "세종문화회관", "마포문화재단", "기타", "서울시립미술관", "노원구청", "서울문화재단", "국립국악원",
    "은평구립도서관",
  ]
  static let audiences = [
    "누구나", "전체관람가", "시민 누구나", "성인", "초등학생 이상", "관심있는 누구나", "만 7세 이상",
    "7세 이상 관람 가능(2017년생부터 관람 가능)", "어린이",
  ]
  static let performers = ["파리나무십자가소년합창단", "서울시합창단", "김동현(바이올린), 홍길동(피아노)", "극단 \"서울\""]
  static let introductions = [
    "하나되는 세상",
    "가족과 함께 즐기는 여름밤의 클래식 공연입니다.",
    "전통 한지로 등을 만들어 봅니다, 재료는 현장에서 제공합니다.",
    "1부: 실내악\n2부: 협주곡",
    "<p>자세한 내용은 홈페이지를 참고하세요.</p>",
  ]
  static let orgLinkPrefixes = [
    "https://www.sejongpac.or.kr/portal/performance/performance/view.do?menuNo=200004&performIdx=",
    "https://tickets.interpark.com/goods/240",
    "https://www.mfac.or.kr/performance/whole_view.jsp?sc_b_category=17&pk_seq=",
    "https://yeyak.seoul.go.kr/web/reservation/selectReservView.do?rsv_svc_id=S",
  ]
  static let prices = [
    5_000, 8_000, 10_000, 12_000, 15_000, 20_000, 30_000, 40_000, 50_000, 55_000, 60_000, 70_000,
    80_000, 100_000, 120_000, 150_000, 170_000,
  ]

  static let epoch2023September = CalendarDay(dayNumber: 19_601)  // 2023-09-01
  static let year2099End = CalendarDay(dayNumber: 47_481)  // 2099-12-31

  /// `20,000원`.
  static func won(_ amount: Int) -> String {
    let thousands = amount / 1000
    let rest = amount % 1000
    return rest == 0 ? "\(thousands),000원" : "\(amount)원"
  }

  /// `YYYY-MM-DD` without `String(format:)`, which would dominate generation time.
  static func iso(_ day: CalendarDay) -> String {
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(day.year)-\(two(day.month))-\(two(day.day))"
  }

  /// A fresh copy with its own storage, as a reader would produce for each row, so that
  /// equality checks cannot take the shared-storage shortcut.
  static func copy(_ text: String) -> String {
    String(decoding: Array(text.utf8), as: UTF8.self)
  }
}

// MARK: - Random numbers

/// SplitMix64: small, fast, and identical on every platform, so a seed always gives the
/// same catalog.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in 0..<1.
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  /// Uniform in 0..<n (n > 0).
  mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

  mutating func pick(_ values: [String]) -> String { values[below(values.count)] }

  mutating func weighted(_ table: [(String, Int)]) -> String {
    let total = table.reduce(0) { $0 + $1.1 }
    var r = below(total)
    for (value, weight) in table {
      if r < weight { return value }
      r -= weight
    }
    return table[table.count - 1].0
  }

  mutating func hex(_ digits: Int) -> String {
    let alphabet = Array("0123456789abcdef".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits)
    var bits = next()
    for i in 0..<digits {
      if i % 16 == 0 && i > 0 { bits = next() }
      bytes.append(alphabet[Int(bits & 0xF)])
      bits >>= 4
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
