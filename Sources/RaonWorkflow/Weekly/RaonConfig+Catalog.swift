import Foundation
import RaonCore

/// A name `[weekly] districts` and `[mail.districts]` may give a pack, read before the store
/// says which catalog it keeps: one of Seoul's 25 districts (any spelling `District.named`
/// takes), or a name shaped like a 시·도 or a provider of the national catalog (`경기도`,
/// `경기도 의정부시`). Which of them the store's catalog takes is checked once it is known
/// (``RaonConfig/forCatalog(_:)``), naming the same line.
enum PackName {
  /// The name as its pack is called, or `nil` when no catalog could have it.
  static func read(_ text: String) -> String? {
    let name = text.trimmingCharacters(in: .whitespaces)
    for profile in CatalogProfile.all where profile.fixedRegions != nil {
      if let region = profile.region(named: name) { return region }
    }
    // A 시·도's full name ends in 도 or 시 (경기도, 서울특별시, 세종특별자치시); a provider's
    // begins with one.
    guard let first = name.split(separator: " ").first, first.count >= 3, let last = first.last,
      last == "도" || last == "시", first.unicodeScalars.allSatisfy({ (0xAC00...0xD7A3).contains($0.value) })
    else { return nil }
    return name
  }

  /// The fixed regions in their catalog's order (Seoul's districts), then any other name in
  /// 가나다 order.
  static func ordered(_ names: [String]) -> [String] {
    let fixed = CatalogProfile.all.flatMap { $0.fixedRegions ?? [] }
    return fixed.filter(names.contains) + names.filter { !fixed.contains($0) }.sorted()
  }
}

extension RaonConfig {
  /// The config as the store's catalog reads it: `[weekly] districts` and `[mail.districts]`
  /// must name that catalog's regions — Seoul's districts, or for a catalog whose regions
  /// have a lineage (the national one) its 시·도 and providers —, else exit 78 naming the
  /// line. Such a catalog's packs are, unless `[weekly] districts` names them, those of the
  /// lists in `[mail.districts]`.
  public func forCatalog(_ profile: CatalogProfile) throws -> RaonConfig {
    var config = self
    let path = self.path ?? "raon.toml"
    let lineage = profile.regions.lineage
    func takes(_ name: String) -> Bool {
      guard let lineage else { return profile.regions.names.contains(name) }
      guard let first = name.split(separator: " ").first, District.named(name) == nil else { return false }
      return lineage.province(spelledAs: String(first)) != nil
    }
    func refusal(_ name: String, _ place: String) -> String {
      lineage == nil
        ? "'\(name)' in \(place) is not one of \(profile.words.fixedRegionsPhrase(count: profile.regions.names.count))"
        : "'\(name)' in \(place) is not a 시·도 of the national catalog (nor one of its providers, like \"경기도 의정부시\"): this store keeps the national catalog"
    }
    if let weekly = config.weekly {
      if weekly.districtsGiven {
        for name in weekly.districts where !takes(name) {
          throw WorkflowError.config(path: path, line: weekly.districtsLine, message: refusal(name, "districts"))
        }
      } else if let fixed = profile.fixedRegions {
        // Every one of the catalog's fixed regions gets a pack (Seoul's 25, the default).
        config.weekly?.districts = fixed
      } else {
        let named = Array(config.mail?.districts.keys ?? [:].keys) + config.channels.recipients.map(\.list).filter { $0 != WeeklyList.city }
        config.weekly?.districts = PackName.ordered(Array(Set(named)))
      }
    }
    if let mail = config.mail {
      for name in PackName.ordered(Array(mail.districts.keys)) where !takes(name) {
        throw WorkflowError.config(path: path, line: mail.districtLines[name] ?? 0, message: refusal(name, "[mail.districts]"))
      }
    }
    for recipient in config.channels.recipients where recipient.list != WeeklyList.city && !takes(recipient.list) {
      throw WorkflowError.config(
        path: path, line: recipient.listLine, message: refusal(recipient.list, "[\(recipient.section)] list"))
    }
    return config
  }
}
