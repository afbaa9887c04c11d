import ArgumentParser
import RaonCore
import RaonWorkflow

/// Which of `raon report`'s options go with which catalog: a catalog with a fixed list of
/// regions (Seoul's districts) packs by `--district`, `--districts all`; one whose regions
/// are those its data holds (the national 시·도 and providers) by `--region`,
/// `--regions all`. `--input`/`--api` record the chosen catalog's file or Open API, as
/// `raon snapshot` does.
enum NationalReportOptions {
  static func check(_ profile: CatalogProfile, districts: Bool, regions: Bool) throws {
    let catalog = profile.name.rawValue
    if profile.fixedRegions != nil, regions {
      throw ValidationError("--region and --regions are for a catalog whose regions come from its data (--catalog national); the \(catalog) catalog's packs are --district NAME or --districts all")
    }
    if profile.fixedRegions == nil, districts {
      throw ValidationError("the \(catalog) catalog's packs are --region NAME (a \(profile.regions.primaryLabel) or a provider) or --regions all, not --district/--districts")
    }
  }
}
