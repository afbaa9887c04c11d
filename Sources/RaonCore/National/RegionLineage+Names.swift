extension RegionLineage {
  /// An address as a comparison reads it: its leading 시·도 written as `{id}`, and when a
  /// 시·군·구 the lineage lists follows, both written as `{lineage}`
  /// (``keyLineage(of:)``), so that a region renamed or merged leaves an address the same
  /// (`강원도 춘천시 중앙로 1` and `강원특별자치도 춘천시 중앙로 1` both read `{강원} 춘천시 중앙로 1`).
  /// Text is trimmed and its white space collapsed first; an address that does not begin
  /// with a 시·도 is returned so.
  public func addressKey(_ address: String) -> String {
    let clean = Self.collapsed(address)
    var words = clean.split(separator: " ").map(String.init)
    guard let first = words.first, let province = provinceBySpelling[first] else { return clean }
    if words.count > 1 {
      let local = Self.localName(words[1])
      if let body = bodyByLocalName[province + "|" + local] {
        words.replaceSubrange(0...1, with: ["{\(keyLineage(of: body))}"])
        return words.joined(separator: " ")
      }
      if merges[province + " " + local] != nil {
        words.replaceSubrange(0...1, with: ["{\(keyLineage(of: province + " " + local))}"])
        return words.joined(separator: " ")
      }
    }
    words[0] = "{\(province)}"
    return words.joined(separator: " ")
  }

  /// A 시·도's name on `day` (its id when unknown; 기타 기관 for ``otherBodies``).
  public func provinceName(_ id: String, on day: CalendarDay) -> String {
    if id == Self.otherBodies { return Self.otherBodiesName }
    guard let province = provinces.first(where: { $0.id == id }) else { return id }
    return Self.pick(province.names, on: day)
  }

  /// A provider's name on `day`: a merged body under what it became, a renamed one under
  /// its name of that day, another body with its 시·도 named as on that day.
  public func providerName(_ id: String, on day: CalendarDay) -> String {
    if id.hasPrefix("@") { return expandingProvinces(String(id.dropFirst()), on: day) }
    let body = bodyID(of: id)
    let suffix = String(id.dropFirst(body.count))
    if let merge = merges[body], merge.on <= day, merge.into != body {
      return providerName(merge.into + suffix, on: day)
    }
    if provinces.contains(where: { $0.id == body }) { return provinceName(body, on: day) + suffix }
    if let listed = bodies[body] {
      let current = listed.names.last { $0.named.holds(on: day) } ?? listed.names.first { _ in true }
      if let current {
        return provinceName(current.province, on: day) + " " + current.named.name + suffix
      }
    }
    let parts = id.split(separator: " ", maxSplits: 1).map(String.init)
    guard parts.count == 2, provinces.contains(where: { $0.id == parts[0] }) else { return id }
    return provinceName(parts[0], on: day) + " " + parts[1]
  }

  /// A provider's 시·도 id on `day`, when the provider is a local government (a body that
  /// moved, like 군위군, is in its 시·도 of that day).
  public func province(ofProvider id: String, on day: CalendarDay) -> String? {
    if id.hasPrefix("@") { return nil }
    let body = bodyID(of: id)
    if let merge = merges[body], merge.on <= day, merge.into != body {
      return province(ofProvider: merge.into, on: day)
    }
    if let listed = bodies[body] {
      return (listed.names.last { $0.named.holds(on: day) } ?? listed.names.last)?.province
    }
    let first = String(id.split(separator: " ").first ?? "")
    return provinces.contains { $0.id == first } ? first : nil
  }

}
