import TestSupport
import Foundation
import RaonCore

@testable import RaonStore

/// Sample-like records (22 Korean columns, ~650 bytes of UTF-8 text each) and the
/// programs a normaliser would make of them, made deterministically from a program number
/// and a revision, so a test can describe a catalog as `[number: revision]`.
enum SyntheticCatalog {
  /// The sample CSV's header.
  static let names = FieldNames([
    "분류", "자치구", "공연/행사명", "날짜/시간", "장소", "기관명", "이용대상", "이용요금", "출연자정보",
    "프로그램소개", "기타내용", "홈페이지 주소", "대표이미지", "신청일", "시민/기관", "시작일", "종료일", "테마분류",
    "위도(X좌표)", "경도(Y좌표)", "유무료", "문화포털상세URL",
  ])

  static let categories = ["클래식", "연극", "뮤지컬/오페라", "전시/미술", "교육/체험", "축제-문화/예술", "국악", "콘서트"]
  static let syllables = Array("가나다라마바사아자차카타파하서울문화행사공연전시축제음악미술체험교실특별기획")

  /// The raw record and program of one program at one revision.
  static func entry(_ number: Int, revision: Int = 0) -> NewSnapshot.Entry {
    var random = SplitMix64(seed: UInt64(number) &* 1_000_003 &+ UInt64(revision))
    func korean(_ count: Int) -> String {
      String((0..<count).map { _ in syllables[random.next(syllables.count)] })
    }
    let category = categories[random.next(categories.count)]
    let district = District.all[random.next(District.all.count)]
    let title = "\(2024 + revision % 2) " + korean(18 + random.next(10)) + " (\(revision))"
    let start = CalendarDay(year: 2024, month: 1 + random.next(12), day: 1 + random.next(28))
    let end = start.map { $0.adding(days: random.next(60)) }
    let place = korean(8 + random.next(8))
    let organizer = korean(4 + random.next(4))
    let isFree = random.next(3) == 0
    let fee = 10_000 * (1 + random.next(9))
    let feeText = isFree ? "무료" : "R석 \(fee / 10_000)만원 / S석 \(fee / 20_000)만원"
    let cultcode = 100_000 + number
    let latitude = 37.45 + Double(random.next(1_000_000)) / 10_000_000
    let longitude = 126.9 + Double(random.next(1_000_000)) / 5_000_000
    let portalURL =
      "https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=\(cultcode)&menuNo=200008"
    let orgLink = "https://tickets.interpark.com/goods/\(24_000_000 + number)?r=\(revision)"
    let imageURL =
      "https://culture.seoul.go.kr/cmmn/file/getImage.do?atchFileId=\(String(number, radix: 16))\(korean(2).utf8.count)abcdef0123456789&thumb=Y"
    let dates = "\(start?.description ?? "")~\(end?.description ?? "")"
    let values: [String?] = [
      category, district, title, dates, place, organizer, "초등학생이상 관람가", feeText,
      random.next(2) == 0 ? korean(6) : "", korean(10 + random.next(10)), "", orgLink, imageURL,
      "2024-08-29", "시민", (start?.description ?? "") + " 00:00:00.0",
      (end?.description ?? "") + " 00:00:00.0", "기타", "\(latitude)", "\(longitude)",
      isFree ? "무료" : "유료", portalURL,
    ]
    let raw = RawRecord(names: names, values: values)
    let program = Program(
      id: "cult:\(cultcode)", title: title, category: category, district: district, place: place,
      organizer: organizer, audience: "초등학생이상 관람가", feeText: feeText, isFree: isFree,
      feeMinKRW: isFree ? 0 : fee / 2, feeMaxKRW: isFree ? 0 : fee, startDate: start, endDate: end,
      theme: "기타", latitude: latitude, longitude: longitude, portalURL: portalURL,
      orgLink: orgLink, imageURL: imageURL, registeredOn: CalendarDay(iso: "2024-08-29"),
      qualityFlags: number % 7 == 0 ? [.coordsOutsideSeoul, .freeButPriced] : [])
    return NewSnapshot.Entry(program: program, raw: raw)
  }

  /// A snapshot of the programs `numbers` at their revisions.
  static func snapshot(
    _ catalog: [Int: Int], day: Int = 0, source: String = "synthetic.csv"
  ) -> NewSnapshot {
    NewSnapshot(
      takenAt: Date(timeIntervalSince1970: 1_725_840_000 + Double(day) * 86_400), source: source,
      sourceTotal: catalog.count,
      entries: catalog.keys.sorted().map { entry($0, revision: catalog[$0] ?? 0) })
  }

  /// A catalog of programs `0..<count` at revision 0.
  static func catalog(count: Int) -> [Int: Int] {
    Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, 0) })
  }

  /// The next day's catalog: `rate` of the programs changed, removed or added (a third
  /// each), or all changed when `changesOnly`.
  static func churn(
    _ catalog: [Int: Int], rate: Double, changesOnly: Bool = false, random: inout SplitMix64
  ) -> [Int: Int] {
    var next = catalog
    let moves = max(1, Int(Double(catalog.count) * rate))
    var newNumber = (catalog.keys.max() ?? 0) + 1
    let keys = catalog.keys.sorted()
    for move in 0..<moves {
      switch changesOnly ? 0 : move % 3 {
      case 0:
        let key = keys[random.next(keys.count)]
        if let revision = next[key] { next[key] = revision + 1 }
      case 1:
        next[keys[random.next(keys.count)]] = nil
      default:
        next[newNumber] = 0
        newNumber += 1
      }
    }
    return next
  }
}
