import Testing

@Test func placeholderForRaonIngest() {
  #expect(Bool(true))
}
