// libFuzzer target: arbitrary bytes → JSONCatalogReader.readAPIPage (one Open API page,
// the client's path) → ProgramNormalizer, plus the client's row identity.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  do {
    let page = try JSONCatalogReader.readAPIPage(bytes, source: "fuzz-page", firstRow: 1001)
    if let total = page.totalCount { _ = total &+ 1 }
    for record in page.records {
      precondition(record.values.count == record.names.names.count)
      FuzzChecks.check(ProgramNormalizer.normalize(record))
    }
  } catch is JSONCatalogError {
  } catch {
    preconditionFailure("unexpected error type: \(error)")
  }
  return 0
}
