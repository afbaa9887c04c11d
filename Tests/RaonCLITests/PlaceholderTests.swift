import Testing

@Test func placeholderForRaonCLI() {
  #expect(Bool(true))
}
