import Foundation
import RaonConcurrency
import RaonCore

/// Encoding entries as versions and decoding stored versions as programs: pure, the same
/// for every store.
package enum VersionCoding {
  /// The distinct versions of the entries, in order of first appearance, with how many
  /// entries each one stands for.
  package static func distinctVersions(of entries: [NewSnapshot.Entry]) -> ([ProgramVersion], [Int]) {
    // Encoding is pure: done over the cores, then grouped in entry order.
    let encoded = ParallelWork.map(entries.count) {
      ProgramVersion(program: entries[$0].program, raw: entries[$0].raw)
    }
    // Grouping by `==` through hash chains (hash → first distinct version with it, each
    // linked to the next with the same hash) rather than a `[ProgramVersion: Int]`, whose
    // keys would be a second copy of every version; when all are distinct, as they nearly
    // always are, `encoded` itself is returned.
    var firstWithHash: [Int: Int] = [:]
    firstWithHash.reserveCapacity(encoded.count)
    var nextWithSameHash: [Int] = []
    var distinct: [Int] = []
    var copies: [Int] = []
    nextWithSameHash.reserveCapacity(encoded.count)
    distinct.reserveCapacity(encoded.count)
    copies.reserveCapacity(encoded.count)
    for (i, version) in encoded.enumerated() {
      let hash = version.hashValue
      let head = firstWithHash[hash] ?? -1
      var candidate = head
      while candidate >= 0, encoded[distinct[candidate]] != version {
        candidate = nextWithSameHash[candidate]
      }
      if candidate >= 0 {
        copies[candidate] += 1
      } else {
        firstWithHash[hash] = distinct.count
        nextWithSameHash.append(head)
        distinct.append(i)
        copies.append(1)
      }
    }
    let versions = distinct.count == encoded.count ? encoded : distinct.map { encoded[$0] }
    return (versions, copies)
  }

  /// The programs of versions read from a store, in order, each repeated as often as it
  /// is present. Decoding is pure and most of a read's cost: it is spread over the cores.
  /// Errors come in order: the first version whose raw values fail, else the first whose
  /// program fails. Each version's raw values are parsed, checked and dropped in one step,
  /// so a snapshot is never held as rows and programs at once.
  package static func programs(of present: [PresentVersion]) throws -> [Program] {
    var decoded = ParallelWork.map(present.count) {
      i -> (rawError: Swift.Error?, program: Result<Program, Swift.Error>?) in
      let values: [String?]
      do {
        values = try rawValues(of: present[i].version, versionID: present[i].id)
      } catch {
        return (error, nil)
      }
      return (nil, Result { try present[i].version.program(rawValues: values) })
    }
    for i in decoded.indices {
      if let error = decoded[i].rawError { throw error }
    }
    var programs: [Program] = []
    programs.reserveCapacity(present.count)
    for i in decoded.indices {
      // Moved out of `decoded` rather than copied (see `ParallelWork.map`).
      guard let program = try decoded[i].program.take()?.get() else { continue }
      for _ in 1..<max(1, present[i].copies) { programs.append(program) }
      programs.append(program)
    }
    return programs
  }

  /// A version's raw values, parsed from its `raw_values` and checked against its field names.
  package static func rawValues(of version: ProgramVersion, versionID: Int64) throws -> [String?] {
    let values = try CompactJSON.parseArray(version.rawJSON)
    guard values.count == version.fieldNames.names.count else {
      throw DecodingFailure(
        "version \(versionID) has \(values.count) raw values for \(version.fieldNames.names.count) field names")
    }
    return values
  }

  /// The programs of versions and their raw records, in order, each repeated as often as it
  /// is present: ``programs(of:)`` and ``rawRecords(of:)`` with each `raw_values` parsed
  /// once (a comparison by events reads both: parsing was half of reading a snapshot).
  package static func programsAndRawRecords(of present: [PresentVersion]) throws
    -> (programs: [Program], records: [StoredRawRecord])
  {
    // Errors in the same order as ``programs(of:)``'s: raw values first, then programs.
    var decoded = ParallelWork.map(present.count) {
      i -> (rawError: Swift.Error?, values: [String?], program: Result<Program, Swift.Error>?) in
      let values: [String?]
      do {
        values = try rawValues(of: present[i].version, versionID: present[i].id)
      } catch {
        return (error, [], nil)
      }
      return (nil, values, Result { try present[i].version.program(rawValues: values) })
    }
    for i in decoded.indices {
      if let error = decoded[i].rawError { throw error }
    }
    var programs: [Program] = []
    var records: [StoredRawRecord] = []
    programs.reserveCapacity(present.count)
    records.reserveCapacity(present.count)
    for i in decoded.indices {
      // Moved out of `decoded` rather than copied (see `ParallelWork.map`).
      guard let program = try decoded[i].program.take()?.get() else { continue }
      let values = decoded[i].values
      decoded[i].values = []
      var version = present[i].version
      version.rawValues = values
      let raw = StoredRawRecord(programID: version.programID, versionID: present[i].id, record: version.rawRecord)
      programs.append(contentsOf: repeatElement(program, count: max(1, present[i].copies)))
      records.append(contentsOf: repeatElement(raw, count: present[i].copies))
    }
    return (programs, records)
  }

  /// The raw records of versions, each repeated as often as it is present.
  package static func rawRecords(of present: [PresentVersion]) throws -> [StoredRawRecord] {
    let values = try ParallelWork.map(present.count) { i in
      try rawValues(of: present[i].version, versionID: present[i].id)
    }
    var records: [StoredRawRecord] = []
    records.reserveCapacity(present.count)
    for (stored, values) in zip(present, values) {
      var version = stored.version
      version.rawValues = values
      let raw = StoredRawRecord(programID: version.programID, versionID: stored.id, record: version.rawRecord)
      records.append(contentsOf: repeatElement(raw, count: stored.copies))
    }
    return records
  }
}
