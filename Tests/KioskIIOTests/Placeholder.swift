import Testing

@Test func placeholderIIO() {}
