import ArgumentParser
import RaonCore
import RaonWorkflow

/// Which of `raon report`'s options go with which catalog: Seoul's packs are districts
/// (`--district`, `--districts all`), the national data's regions (`--region`,
/// `--regions all`). `--input`/`--api` record the chosen catalog's file or Open API, as
/// `raon snapshot` does.
enum NationalReportOptions {
  static func check(_ profile: CatalogProfile, districts: Bool, regions: Bool) throws {
    switch profile.name {
    case .seoul:
      if regions {
        throw ValidationError("--region and --regions are for --catalog national; Seoul's packs are --district NAME or --districts all")
      }
    case .national:
      if districts {
        throw ValidationError("the national catalog's packs are --region NAME (a 시·도 or a provider) or --regions all, not --district/--districts")
      }
    }
  }
}
