import Testing

@Test func placeholderDRM() {}
