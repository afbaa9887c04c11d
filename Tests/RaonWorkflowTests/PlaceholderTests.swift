import Testing

@Test func placeholderForRaonWorkflow() {
  #expect(Bool(true))
}
