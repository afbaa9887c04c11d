import Foundation
import RaonCore
import TestSupport
import Testing

@testable import RaonIngest

/// Inputs far beyond the real catalog: each gives a correct result or a clear error in
/// seconds, never a crash or a runaway allocation. Generated into memory or a temp dir.
@Suite(.serialized) struct IngestLimitsTests {
  static let headerBody = "분류,자치구,공연/행사명,날짜/시간,장소,이용요금,유무료,시작일,종료일,문화포털상세URL"
  static let header = headerBody + "\r\n"

  static func rowBody(_ n: Int, title: String? = nil) -> String {
    "콘서트,마포구,\(title ?? "공연 \(n)"),2024-09-01~2024-09-30,\"상상마당, 홀\",\"20,000원\",유료,"
      + "2024-09-01,2024-09-30,https://culture.seoul.go.kr/view.do?cultcode=\(400_000 + n)"
  }

  static func row(_ n: Int, title: String? = nil) -> String { rowBody(n, title: title) + "\r\n" }

  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = Date()
    try body()
    return Date().timeIntervalSince(start)
  }

  @Test func aFiftyMegabyteCSVIsReadCompletely() throws {
    var text = Self.header
    let oneRow = Self.row(0).utf8.count
    let rows = 50_000_000 / oneRow + 1
    text.reserveCapacity(rows * (oneRow + 4))
    for n in 1...rows { text += Self.row(n) }
    let data = Data(text.utf8)
    #expect(data.count >= 50_000_000)
    var batch: CatalogBatch?
    let elapsed = try Self.seconds { batch = try CSVCatalogReader.read(data, source: "big.csv") }
    #expect(batch?.records.count == rows)
    #expect(batch?.records.last?[.title] == "공연 \(rows)")
    #expect(batch?.records.last?[.place] == "상상마당, 홀")
    print("50 MB CSV (\(rows) rows) read in \(elapsed) s")
  }

  @Test func aOneMegabyteCellIsKeptWhole() throws {
    let cell = String(repeating: "가,\"\"나\r\n", count: 100_000)  // 1.1 MB
    let quoted = "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    let text = Self.header + Self.row(1, title: quoted) + Self.row(2)
    let batch = try CSVCatalogReader.read(Data(text.utf8), source: "cell.csv")
    #expect(batch.records.count == 2)
    #expect(batch.records[0][.title] == cell)
    #expect(batch.records[1].location?.line == 3 + cell.filter { $0 == "\r\n" }.count)
    let program = ProgramNormalizer.normalize(batch.records[0])
    #expect(program.title.utf8.count > 1_000_000)
  }

  @Test func tenThousandColumnsAreRead() throws {
    let extra = (1...9_990).map { "col\($0)" }
    var text = Self.headerBody + "," + extra.joined(separator: ",") + "\r\n"
    for n in 1...20 {
      text += Self.rowBody(n) + "," + (1...9_990).map { "v\($0)_\(n)" }.joined(separator: ",") + "\r\n"
    }
    var batch: CatalogBatch?
    let elapsed = try Self.seconds { batch = try CSVCatalogReader.read(Data(text.utf8), source: "wide.csv") }
    #expect(batch?.records.count == 20)
    #expect(batch?.records.first?.names.names.count == 10_000)
    #expect(batch?.records.last?[name: "col9990"] == "v9990_20")
    let programs = batch?.records.map(ProgramNormalizer.normalize) ?? []
    #expect(programs.map(\.id) == (1...20).map { "cult:\(400_000 + $0)" })
    print("10,000 columns read and normalised in \(elapsed) s")
  }

  /// One 100 MB line: one huge cell, and a line of 50 million empty fields. The first is
  /// read; the second is refused with a clear error before it allocates 50 million values.
  @Test func aHundredMegabyteLineIsReadOrRefusedClearly() throws {
    let big = 100 * 1_048_576
    var oneCell = Data(Self.header.utf8)
    oneCell.append(Data(Self.row(1).utf8))
    oneCell.append(Data(repeating: UInt8(ascii: "x"), count: big))
    oneCell.append(contentsOf: Array("\r\n".utf8))
    let batch = try CSVCatalogReader.read(oneCell, source: "long.csv")
    #expect(batch.records.count == 2)
    #expect(batch.records[1].values[0]?.utf8.count == big)

    var commas = Data(Self.header.utf8)
    commas.append(Data(repeating: UInt8(ascii: ","), count: big))
    #expect(throws: CSVCatalogError.self) { _ = try CSVCatalogReader.read(commas, source: "commas.csv") }
    do {
      _ = try CSVCatalogReader.read(commas, source: "commas.csv")
    } catch {
      let text = String(describing: error)
      #expect(text.contains("commas.csv:2"), "\(text)")
      #expect(text.contains("fields"), "\(text)")
    }
  }

  @Test func deeplyNestedJSONIsRefusedWithoutExhaustingTheStack() throws {
    for opener in ["[", "{\"a\":"] {
      let text = String(repeating: opener, count: 100_000)
      let data = Data(text.utf8)
      #expect(CatalogFileReader.sniff(data) == .json)
      do {
        _ = try CatalogFileReader.read(data, name: "deep.json")
        Issue.record("deep nesting was accepted")
      } catch let error as JSONCatalogError {
        #expect(String(describing: error).contains("nesting deeper than"), "\(error)")
      }
      #expect(throws: JSONCatalogError.self) {
        _ = try JSONCatalogReader.readAPIPage(Array(data), source: "page", firstRow: 1)
      }
    }
    // Just inside the limit is fine, and its value is kept as compact JSON text.
    let nested = String(repeating: "[", count: 250) + String(repeating: "]", count: 250)
    let row = "[{\"codename\":\"x\",\"guname\":\"중구\",\"title\":\"t\",\"place\":\"p\",\"is_free\":\"무료\",\"deep\":\(nested)}]"
    let batch = try JSONCatalogReader.read(Data(row.utf8), source: "ok.json")
    #expect(batch.records.first?[name: "deep"] == nested)
  }

  @Test func aHugeFlatJSONArrayIsRefusedAsNotACatalog() throws {
    var text = "["
    text.reserveCapacity(20_000_002)
    for _ in 0..<5_000_000 { text += "1,1," }
    text.removeLast()
    text += "]"
    #expect(throws: JSONCatalogError.self) { _ = try JSONCatalogReader.read(Data(text.utf8), source: "flat.json") }
  }
}
