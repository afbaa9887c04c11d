import Testing

@Test func placeholderForRaonCore() {
  #expect(Bool(true))
}
