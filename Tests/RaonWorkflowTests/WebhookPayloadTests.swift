import Foundation
import RaonMail
import RaonStore
import Testing

@testable import RaonWorkflow

/// What a webhook is posted (``WebhookPayload``): page 1 as the ledger keeps it, the files by
/// name, size and SHA-256, links into the site — figures written out by hand here.
struct WebhookPayloadTests {
  static let summary = WeeklySummary(
    language: "ko", title: "종로구 문화행사 주간 현황", period: "2024. 9. 16.(월) ~ 9. 22.(일)",
    dataAsOf: "2024. 9. 16.(월) 07:00 수집 기준", sentencesHeading: "□ 주간 요약", sentences: ["이번 주 운영 중인 행사는 3건입니다."],
    headlineHeading: "□ 주요 지표", headline: .init(header: ["구분", "이번 주"], rows: [["운영 중", "3"]]),
    attachmentsHeading: "붙임", sourceLine: "출처: 서울 열린데이터광장", office: ["문화정책과"])

  static func parcel(list: String, files: [WeeklyMail.Attachment]) -> WeeklyParcel {
    WeeklyParcel(
      week: "2024-09-16", list: list, parts: [], documentHash: "h", deliveries: [], summary: summary, files: files)
  }

  @Test func aPacksPayloadLinksItsPageAndDescribesItsFiles() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("raon-webhook-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    try FileManager.default.createDirectory(at: out.appendingPathComponent("w"), withIntermediateDirectories: true)
    try Data("abc".utf8).write(to: out.appendingPathComponent("w/report.pdf"))
    let payload = try WebhookPayload.make(
      Self.parcel(list: "종로구", files: [.init(path: "w/report.pdf", name: "종로구.pdf")]), summary: Self.summary, out: out,
      siteURL: "https://raon.example.go.kr/site", packFolder: "districts")
    #expect(payload.week == "2024-W38")
    #expect(payload.reportURL == "https://raon.example.go.kr/site/weeks/2024-W38/districts/%EC%A2%85%EB%A1%9C%EA%B5%AC/report.html")
    #expect(payload.siteURL == "https://raon.example.go.kr/site/")
    // SHA-256("abc"), FIPS 180-2's example.
    #expect(payload.files == [.init(name: "종로구.pdf", bytes: 3, sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")])
    #expect(payload.text.hasPrefix("종로구 문화행사 주간 현황\n2024. 9. 16.(월) ~ 9. 22.(일)\n"))
    #expect(payload.text.contains("• 이번 주 운영 중인 행사는 3건입니다."))
    #expect(payload.text.contains("구분 | 이번 주\n운영 중 | 3"))
    let json = try #require(String(data: try payload.encoded(), encoding: .utf8))
    #expect(json.contains("\"data_as_of\":\"2024. 9. 16.(월) 07:00 수집 기준\""), "\(json)")
    #expect(json.contains("\"office\":[\"문화정책과\"]"))
  }

  @Test func withoutASiteThereAreNoLinksAndAMissingFileIsAnError() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("raon-webhook-\(UUID().uuidString)")
    let city = try WebhookPayload.make(Self.parcel(list: "city", files: []), summary: Self.summary, out: out, siteURL: nil, packFolder: "districts")
    #expect(city.reportURL == nil && city.siteURL == nil)
    #expect(!city.text.contains("http"))
    #expect(throws: (any Error).self) {
      try WebhookPayload.make(
        Self.parcel(list: "city", files: [.init(path: "gone.pdf", name: "x.pdf")]), summary: Self.summary, out: out, siteURL: nil,
        packFolder: "districts")
    }
  }
}
