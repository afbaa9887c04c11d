import RaonErrors
extension RegionLineage {
  /// Why a rename or merger from the config cannot be added.
  public struct ExtensionError: RaonError, CustomStringConvertible, Equatable {
    public var exitStatus: ExitStatus { .failure }
    public var message: String
    public var description: String { message }
  }

  /// The lineage with `new` continuing `old` (a provider renamed, or given another name
  /// by its rows): from `since` on it is named `new`; before, `old`. Both are provider
  /// names as rows write them.
  public func renaming(_ old: String, to new: String, since: CalendarDay?) throws -> RegionLineage {
    var copy = self
    let was = provider(name: old, code: "")
    let becomes = provider(name: new, code: "")
    guard was.id != becomes.id else { return copy }
    let words = Self.collapsed(new).split(separator: " ").map(String.init)
    if was.province != nil, !was.id.hasPrefix("@"), words.count == 2,
      let province = provinceBySpelling[words[0]], Self.isLocalGovernment(Self.localName(words[1]))
    {
      // A 시·군·구 renamed or moved: a body line, with the old name as its first one.
      let body = bodyID(of: was.id)
      if copy.bodies[body] == nil, let oldProvince = was.province {
        let oldLocal = String(body.split(separator: " ", maxSplits: 1).last ?? "")
        copy.addBody(
          id: body, province: oldProvince,
          named: Named(name: oldLocal, from: nil, until: since.map { $0.adding(days: -1) }), codes: [])
      } else if let last = copy.bodies[body]?.names.indices.last, let since {
        copy.bodies[body]?.names[last].named.until = since.adding(days: -1)
      }
      copy.addBody(
        id: body, province: province, named: Named(name: Self.localName(words[1]), from: since, until: nil),
        codes: [])
      return copy
    }
    if was.id == was.province, words.count == 1 {
      // A 시·도 renamed.
      copy.addProvince(id: was.id, named: Named(name: words[0], from: since, until: nil), codes: [], spellings: [])
      return copy
    }
    copy.aliases[TextKey.fold(Self.collapsed(new))] = was.id
    return copy
  }

  /// The lineage with body `old` part of `into` from `day` on: its events go on as the
  /// merged body's.
  public func merging(_ old: String, into: String, on day: CalendarDay) throws -> RegionLineage {
    let was = provider(name: old, code: "")
    let becomes = provider(name: into, code: "")
    guard was.id != becomes.id else {
      throw ExtensionError(message: "'\(old)' and '\(into)' are the same provider")
    }
    var copy = self
    copy.merges[bodyID(of: was.id)] = (bodyID(of: becomes.id), day)
    if copy.bodies[bodyID(of: becomes.id)] == nil, let province = becomes.province,
      let local = becomes.id.split(separator: " ", maxSplits: 1).last, becomes.id != province
    {
      copy.addBody(
        id: becomes.id, province: province, named: Named(name: String(local), from: nil, until: nil), codes: [])
    }
    return copy
  }

}
