// libFuzzer target: arbitrary bytes → JSONCatalogReader.read (the portal's file download,
// decoded by CatalogTextDecoder first) → ProgramNormalizer.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Data(bytes: data, count: size)
  do {
    let batch = try JSONCatalogReader.read(bytes, source: "fuzz.json")
    precondition(batch.sourceTotal == batch.records.count)
    for record in batch.records {
      precondition(record.values.count == record.names.names.count)
      FuzzChecks.check(ProgramNormalizer.normalize(record))
    }
  } catch is JSONCatalogError {
  } catch is TextDecodingError {
  } catch {
    preconditionFailure("unexpected error type: \(error)")
  }
  return 0
}
