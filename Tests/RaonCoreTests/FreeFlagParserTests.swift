import RaonCore
import Testing

@Suite struct FreeFlagParserTests {
  @Test(arguments: ["무료", " 무료 ", "free", "FREE", "Y", "y", "yes", "true", "True"])
  func readsFreeInEverySourcesSpelling(text: String) {
    #expect(FreeFlagParser.parse(text) == true)
  }

  @Test(arguments: ["유료", "paid", "Paid", "N", "n", "no", "false", "FALSE"])
  func readsPaidInEverySourcesSpelling(text: String) {
    #expect(FreeFlagParser.parse(text) == false)
  }

  @Test(arguments: ["", "  ", "유?무료", "maybe", "1", "무료/유료"])
  func givesNothingForEmptyOrUnrecognisedValues(text: String) {
    #expect(FreeFlagParser.parse(text) == nil)
  }
}
