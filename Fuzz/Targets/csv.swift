// libFuzzer target: arbitrary bytes → CSVCatalogReader (decoding: UTF-8, BOM, CP949 via
// iconv) → ProgramNormalizer. Also goes through CatalogFileReader's sniffing.
// Built by Fuzz/run.sh together with the sources of RaonCore and RaonIngest.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Data(bytes: data, count: size)
  do {
    let batch = try CSVCatalogReader.read(bytes, source: "fuzz.csv")
    precondition(batch.sourceTotal == batch.records.count)
    for record in batch.records {
      precondition(record.values.count == record.names.names.count)
      FuzzChecks.check(ProgramNormalizer.normalize(record))
    }
  } catch is CSVCatalogError {
  } catch is TextDecodingError {
  } catch {
    preconditionFailure("unexpected error type: \(error)")
  }
  // The sniffing entry point too (it may choose JSON).
  _ = try? CatalogFileReader.read(bytes, name: "fuzz")
  return 0
}
