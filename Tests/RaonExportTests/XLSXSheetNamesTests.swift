import Testing
import RaonCore

@testable import RaonDocument
@testable import RaonExport

@Suite("XLSX sheet names and display width")
struct XLSXSheetNamesTests {
  @Test func forbiddenCharactersAreReplaced() {
    var names = XLSXSheetNames()
    #expect(names.claim("분류/자치구 [A]:*?\\") == "분류_자치구 _A_____")
    #expect(names.claim("'quoted'") == "quoted")
    #expect(names.claim("") == "Sheet")
    #expect(names.claim("History") == "Sheet_History")
  }

  @Test func longNamesAreCutTo31AndKeptUnique() {
    var names = XLSXSheetNames()
    let long = String(repeating: "프로그램", count: 10)
    let first = names.claim(long)
    let second = names.claim(long)
    #expect(first.utf16.count == 31)
    #expect(second.utf16.count <= 31)
    #expect(second.hasSuffix(" (2)"))
    #expect(names.claim("summary") == "summary")
    #expect(names.claim("SUMMARY") == "SUMMARY (2)")
  }

  @Test func koreanCountsAsTwoColumns() {
    #expect(DisplayWidth.of("abc") == 3)
    #expect(DisplayWidth.of("서울") == 4)
    #expect(DisplayWidth.of("서울 Seoul") == 10)
    #expect(DisplayWidth.of("ＡＢ") == 4)
    #expect(DisplayWidth.of("e\u{301}") == 1)
  }

  @Test func cellTextIsCutAtExcelsLimit() {
    let (short, cutShort) = XLSXLimits.fitCell("서울")
    #expect(short == "서울" && !cutShort)
    let (long, cut) = XLSXLimits.fitCell(String(repeating: "😀", count: 20_000))
    #expect(cut)
    #expect(long.utf16.count <= 32_767)
    #expect(long.unicodeScalars.allSatisfy { $0 == "😀" })
  }

  @Test func onlyWebAddressesBecomeLinks() {
    #expect(XLSXTableStream.isLinkable("https://culture.seoul.go.kr/x?a=1"))
    #expect(XLSXTableStream.isLinkable("HTTP://EXAMPLE.COM"))
    #expect(!XLSXTableStream.isLinkable("internal:Sheet1!A1"))
    #expect(!XLSXTableStream.isLinkable("javascript:alert(1)"))
    #expect(!XLSXTableStream.isLinkable("https://a b"))
    #expect(!XLSXTableStream.isLinkable("https://x/" + String(repeating: "a", count: 2_080)))
    // The scheme exactly, in any case; then no control character, space or DEL anywhere.
    #expect(XLSXTableStream.isLinkable("hTTpS://x"))
    #expect(XLSXTableStream.isLinkable("http://"))
    #expect(!XLSXTableStream.isLinkable("https:/"))
    #expect(!XLSXTableStream.isLinkable("https:/x/y"))
    #expect(!XLSXTableStream.isLinkable("httpx://x"))
    #expect(!XLSXTableStream.isLinkable("ftp://x.example"))
    #expect(!XLSXTableStream.isLinkable(" https://x"))
    #expect(!XLSXTableStream.isLinkable("https://x\u{7F}"))
    #expect(!XLSXTableStream.isLinkable("https://x\ty"))
    #expect(XLSXTableStream.isLinkable("https://문화.kr/행사"))
    // A string that is not stored contiguously (bridged or lazily built) is read the same.
    #expect(XLSXTableStream.isLinkable(String("https://x.example/ab".reversed().reversed())))
  }
}
