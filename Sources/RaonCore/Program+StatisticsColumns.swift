extension Program {
  /// What a compared snapshot's statistics read of this program: the columns the store's
  /// column read (`programColumnChunks(inSnapshot:)`) gives, every other field left at its
  /// default. A comparison that has decoded the whole programs anyway keeps this much of
  /// them instead of reading the columns again (a test holds the two equal).
  public var statisticsColumns: Program {
    var program = Program(
      id: id, title: title, category: category, district: district, isFree: isFree,
      feeMinKRW: feeMinKRW, feeMaxKRW: feeMaxKRW, latitude: latitude, longitude: longitude,
      qualityFlags: qualityFlags)
    program.startDate = startDate
    program.endDate = endDate
    program.registeredOn = registeredOn
    return program
  }
}
