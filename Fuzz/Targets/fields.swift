// libFuzzer target: the field parsers and the normaliser on arbitrary field maps.
//
// Input: lines (LF-separated) of `NAME=VALUE`; a line without '=' is a value under the
// name of the canonical field chosen by its line number. Every value also goes through
// FeeParser, CatalogDateParser, CoordinateResolver, FreeFlagParser, District and
// ProgramID directly.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  var names: [String] = []
  var values: [String?] = []
  let fields = CanonicalField.allCases
  for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    if let eq = line.firstIndex(of: "=") {
      names.append(String(line[..<eq]))
      let value = String(line[line.index(after: eq)...])
      values.append(value == "\u{0}" ? nil : value)
    } else {
      names.append(fields[n % fields.count].rawValue)
      values.append(String(line))
    }
  }
  for value in values {
    let v = value ?? ""
    if let fee = FeeParser.range(in: v) {
      precondition(fee.min <= fee.max, "fee range \(fee) inverted for \(v.debugDescription)")
      precondition(fee.min >= 0, "negative fee \(fee) for \(v.debugDescription)")
    }
    _ = FeeParser.saysFree(v)
    if let day = CatalogDateParser.day(from: v) { _ = day.description }
    if let range = CatalogDateParser.range(from: v) {
      _ = range.start.description
      _ = range.end.description
    }
    _ = CoordinateResolver.degrees(v)
    _ = FreeFlagParser.parse(v)
    _ = District.canonical(v)
    _ = ProgramID.fromPortalURL(v)
  }
  if values.count >= 2 { _ = CoordinateResolver.resolve(values[0], values[1], within: CatalogProfile.seoul.coordinates) }
  let record = RawRecord(names: FieldNames(names), values: values)
  FuzzChecks.check(ProgramNormalizer.normalize(record))
  return 0
}
