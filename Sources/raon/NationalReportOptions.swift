import ArgumentParser
import RaonCore
import RaonWorkflow

/// Which of `raon report`'s options go with which catalog: Seoul's packs are districts
/// (`--district`, `--districts all`), the national data's regions (`--region`,
/// `--regions all`); the national report reports what `raon snapshot --catalog national`
/// recorded (the report's own `--input`/`--api` read Seoul's catalog).
enum NationalReportOptions {
  static func check(_ profile: CatalogProfile, districts: Bool, regions: Bool, input: Bool) throws {
    switch profile.name {
    case .seoul:
      if regions {
        throw ValidationError("--region and --regions are for --catalog national; Seoul's packs are --district NAME or --districts all")
      }
    case .national:
      if districts {
        throw ValidationError("the national catalog's packs are --region NAME (a 시·도 or a provider) or --regions all, not --district/--districts")
      }
      if input { throw CatalogError.notYet(catalog: .national, command: "report --input/--api (record with raon snapshot --catalog national first)") }
    }
  }
}
