import Testing

@Test func placeholderForRaonAnalytics() {
  #expect(Bool(true))
}
