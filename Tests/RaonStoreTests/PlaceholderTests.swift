import Testing

@Test func placeholderForRaonStore() {
  #expect(Bool(true))
}
