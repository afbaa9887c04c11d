import Foundation
import RaonCore
import RaonStoreCore
import Testing
import TestSupport

/// A version column is one case of ``VersionColumn/ID``: equality is synthesised, the stored
/// reads and writes walk the table, and the compiler asks for its property, its migration
/// and its decoding; so a column added later cannot be left out of one of them. Every test
/// here runs over the whole table, so the next column added is checked the day it is
/// added, with no test to write for it.
struct VersionColumnTests {
  /// A version of a real program of the sample, with a value in every column.
  static let entry: NewSnapshot.Entry =
    Catalogs.sample.first {
      $0.program.feeMinKRW != nil && $0.program.latitude != nil && $0.program.registeredOn != nil
        && $0.program.isFree != nil && !$0.program.qualityFlags.isEmpty
    } ?? Catalogs.sample[0]
  static let base = ProgramVersion(program: entry.program, raw: entry.raw)

  /// `version` with `column` changed, and only it, to a value that still decodes.
  static func changing(_ column: VersionColumn, of version: ProgramVersion) throws -> ProgramVersion {
    var changed = version
    switch (column.id, column.access) {
    case (.startDate, .optionalText(let path)), (.endDate, .optionalText(let path)):
      changed[keyPath: path] = version[keyPath: path] == "2001-02-03" ? "2001-02-04" : "2001-02-03"
    case (.qualityFlags, _):
      changed.qualityFlags = version.qualityFlags == "coords_missing" ? "dates_missing" : "coords_missing"
    case (.programText, _):
      var program = try version.program(rawValues: VersionCoding.rawValues(of: version, versionID: 1))
      program.place += " (바뀜)"
      changed.programText = ProgramVersion(program: program, raw: entry.raw).programText
    case (.rawValues, _):
      var values = try CompactJSON.parseArray(version.rawJSON)
      let i = try #require(values.firstIndex { $0 != nil })
      values[i] = (values[i] ?? "") + " (바뀜)"
      changed.rawJSON = CompactJSON.array(values)
    case (_, .fieldSet):
      changed.fieldNames = FieldNames(version.fieldNames.names.map { $0 + "_" })
    // Any other column, a column added later too: another value of its kind.
    case (_, .text(let path)): changed[keyPath: path] += "x"
    case (_, .optionalText(let path)): changed[keyPath: path] = (version[keyPath: path] ?? "") + "x"
    case (_, .optionalInteger(let path)): changed[keyPath: path] = (version[keyPath: path] ?? 0) + 1
    case (_, .optionalReal(let path)): changed[keyPath: path] = (version[keyPath: path] ?? 0) + 0.5
    case (_, .flag(let path)): changed[keyPath: path].toggle()
    case (_, .optionalFlag(let path)): changed[keyPath: path] = version[keyPath: path] == true ? false : true
    }
    return changed
  }

  /// `value` written out whole, the properties of the objects it holds included.
  static func dumped(_ value: Any) -> String {
    var text = ""
    dump(value, to: &text)
    return text
  }

  /// What a version stands for once read back: its program and its raw record.
  static func readBack(_ version: ProgramVersion) throws -> (Program, RawRecord) {
    let values = try VersionCoding.rawValues(of: version, versionID: 1)
    return (
      try version.program(rawValues: values),
      RawRecord(names: version.fieldNames, values: values, invalidBytesReplaced: version.invalidBytesReplaced)
    )
  }

  @Test func changingOnlyOneColumnMakesTwoVersionsDiffer() throws {
    let base = Self.base
    for (index, column) in VersionColumn.all.enumerated() {
      let changed = try Self.changing(column, of: base)
      #expect(changed != base, "\(column.name)")
      #expect(Set([base, changed]).count == 2, "\(column.name)")
      // What the stores write and compare: the two differ in this column alone.
      let ids = (base: Int64(1), changed: column.isRaw && changed.fieldNames != base.fieldNames ? Int64(2) : 1)
      let before = base.columnValues(fieldSetID: ids.base)
      let after = changed.columnValues(fieldSetID: ids.changed)
      #expect(before.indices.filter { before[$0] != after[$0] } == [index], "\(column.name)")
      // What is read back: the program for a program's column, the raw record for the rest.
      let (baseProgram, baseRaw) = try Self.readBack(base)
      let (program, raw) = try Self.readBack(changed)
      if column.isRaw {
        #expect(raw != baseRaw && program == baseProgram, "\(column.name)")
      } else {
        #expect(program != baseProgram && raw == baseRaw, "\(column.name)")
      }
    }
  }

  /// Each property of a version is held by exactly one column (the raw values excepted:
  /// they are `raw_values` parsed), so no property can be added without its column.
  @Test func everyPropertyOfAVersionIsAColumn() throws {
    let base = Self.base
    let labels = Mirror(reflecting: base).children.compactMap(\.label)
    var covered: [String: String] = [:]
    for column in VersionColumn.all {
      let changed = try Self.changing(column, of: base)
      let differing = zip(Mirror(reflecting: base).children, Mirror(reflecting: changed).children)
        .filter { Self.dumped($0.value) != Self.dumped($1.value) }
        .compactMap(\.0.label)
      #expect(differing.count == 1, "\(column.name) changes \(differing)")
      for label in differing {
        #expect(covered[label] == nil, "\(label) is held by \(covered[label] ?? "") and \(column.name)")
        covered[label] = column.name
      }
    }
    #expect(Set(labels).subtracting(covered.keys) == ["rawValues"])
  }

  /// Every program of the sample comes back from its version exactly as it was recorded:
  /// the decoding made from the columns undoes the encoding.
  @Test func everyProgramOfTheSampleIsDecodedAsItWasEncoded() throws {
    for entry in Catalogs.sample {
      let version = ProgramVersion(program: entry.program, raw: entry.raw)
      let (program, raw) = try Self.readBack(version)
      #expect(program == entry.program)
      #expect(raw == entry.raw)
    }
  }
}
