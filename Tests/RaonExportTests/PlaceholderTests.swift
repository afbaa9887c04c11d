import Testing

@Test func placeholderForRaonExport() {
  #expect(Bool(true))
}
