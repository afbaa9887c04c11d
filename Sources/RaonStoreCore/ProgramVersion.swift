import Foundation
import RaonCore
import RaonErrors

/// One row of `program_version`: a raw record exactly as the source gave it, with the
/// normalised program made from it.
///
/// The program's analytic fields are columns of their own (analysts filter on them). Its
/// remaining text fields go to `program_text`, where a value identical to one of the raw
/// record's values is written as that value's index: those fields are nearly always
/// copied verbatim from the source, and referring to them instead of repeating them keeps
/// a version at about two thirds of its size (see `SCHEMA.md`). Decoding never runs the
/// normaliser; it only undoes this encoding.
package struct ProgramVersion: Hashable {
  // Equality is the synthesised one, so it compares every stored property and a property
  // added for a new column is compared too. It compares them in the order they are
  // declared, stopping at the first difference: the grouping of a snapshot's duplicates
  // compares versions that share a hash, so the cheap fields (ASCII ids and dates,
  // numbers) come first and the long Unicode texts last.

  package var programID: String
  package var isFree: Bool?
  package var invalidBytesReplaced: Bool
  package var feeMinKRW: Int?
  package var feeMaxKRW: Int?
  package var startDate: String?
  package var endDate: String?
  package var latitude: Double?
  package var longitude: Double?
  package var fieldNames: FieldNames
  /// `;`-separated flag names, as in `programs.csv`.
  package var qualityFlags: String
  /// `rawValues` as the JSON array stored in `raw_values`.
  package var rawJSON: String
  /// JSON object of the program's other text fields (see the type's comment).
  package var programText: String
  package var title: String
  package var category: String
  package var district: String
  package var rawValues: [String?]

  /// The program's text fields kept in `program_text`, with the source column each one is
  /// usually copied from, in the order they are written. (`nonisolated(unsafe)`: an
  /// immutable constant, but key paths are not marked `Sendable`.)
  nonisolated(unsafe) static let textFields: [(key: String, field: CanonicalField, keyPath: WritableKeyPath<Program, String>)] = [
    ("place", .place, \.place),
    ("organizer", .organizer, \.organizer),
    ("audience", .audience, \.audience),
    ("fee_text", .feeText, \.feeText),
    ("theme", .theme, \.theme),
    ("portal_url", .portalURL, \.portalURL),
    ("org_link", .orgLink, \.orgLink),
    ("image_url", .imageURL, \.imageURL),
    ("inquiry", .inquiry, \.inquiry),
    ("event_time", .programTime, \.eventTime),
  ]

  // The dictionary that groups a snapshot's duplicates hashes every version. Hashing
  // non-ASCII Strings goes through Unicode normalisation, which made that grouping the
  // costliest step of recording, so the hash takes only the id (ASCII), dates (ASCII) and
  // numbers — values that tell nearly all versions apart. (Equal versions still hash
  // alike: these are among the properties equality compares.)
  package func hash(into hasher: inout Hasher) {
    hasher.combine(programID)
    hasher.combine(startDate)
    hasher.combine(endDate)
    hasher.combine(feeMinKRW)
    hasher.combine(isFree)
    hasher.combine(rawValues.count)
  }

  /// The normalised program, exactly as it was recorded.
  ///
  /// - Parameter rawValues: The raw values, parsed from `rawJSON` by the reader (which
  ///   leaves `self.rawValues` empty rather than copy the version to fill it in).
  package func program(rawValues: [String?]) throws -> Program {
    var program = Program(id: programID)
    for column in Self.columns { try decode(column, rawValues: rawValues, into: &program) }
    return program
  }

  /// ``VersionColumn/ID/allCases``, made once (`allCases` makes a new array at every call).
  private static let columns = VersionColumn.ID.allCases

  /// Sets the program field `column` stands for (nothing for the raw record's columns).
  private func decode(_ column: VersionColumn.ID, rawValues: [String?], into program: inout Program) throws {
    switch column {
    case .programID: program.id = programID
    case .title: program.title = title
    case .category: program.category = category
    case .district: program.district = district
    case .isFree: program.isFree = isFree
    case .feeMinKRW: program.feeMinKRW = feeMinKRW
    case .feeMaxKRW: program.feeMaxKRW = feeMaxKRW
    case .startDate: program.startDate = try Self.day(startDate, column.rawValue)
    case .endDate: program.endDate = try Self.day(endDate, column.rawValue)
    case .latitude: program.latitude = latitude
    case .longitude: program.longitude = longitude
    case .qualityFlags: program.qualityFlags = QualityFlags(joinedNames: qualityFlags)
    case .programText: try decodeProgramText(rawValues: rawValues, into: &program)
    case .fieldSet, .rawValues, .invalidBytesReplaced: break
    }
  }

  /// Sets the program's text fields and registration day from `programText`, where a
  /// number is the index of the raw value the field was copied from.
  private func decodeProgramText(rawValues: [String?], into program: inout Program) throws {
    let text = try CompactJSON.parseObject(programText)
    for (key, _, keyPath) in Self.textFields {
      switch text[key] {
      case nil, .null?: continue
      case .string(let value)?: program[keyPath: keyPath] = value
      case .integer(let i)?:
        guard rawValues.indices.contains(i), let value = rawValues[i] else {
          throw DecodingFailure("program_text.\(key) refers to raw value \(i), which is missing")
        }
        program[keyPath: keyPath] = value
      }
    }
    switch text["registered_on"] {
    case nil, .null?: break
    case .string(let value)?: program.registeredOn = try Self.day(value, "registered_on")
    case .integer?: throw DecodingFailure("program_text.registered_on is a number")
    }
  }

  /// The raw record, sharing `fieldNames` with every other record of its field set.
  package var rawRecord: RawRecord {
    RawRecord(names: fieldNames, values: rawValues, invalidBytesReplaced: invalidBytesReplaced)
  }

  package static func day(_ text: String?, _ column: String) throws -> CalendarDay? {
    guard let text else { return nil }
    guard let day = CalendarDay(iso: text) else {
      throw DecodingFailure("\(column) is '\(text)', not YYYY-MM-DD")
    }
    return day
  }
}

extension ProgramVersion {
  /// A version with `fieldNames` and every other property empty, for a stored row to fill
  /// in column by column (``init(row:fieldSets:versionID:)``).
  init(blankWith fieldNames: FieldNames) {
    programID = ""
    isFree = nil
    invalidBytesReplaced = false
    feeMinKRW = nil
    feeMaxKRW = nil
    startDate = nil
    endDate = nil
    latitude = nil
    longitude = nil
    self.fieldNames = fieldNames
    qualityFlags = ""
    rawJSON = ""
    programText = ""
    title = ""
    category = ""
    district = ""
    rawValues = []
  }

  /// Encodes an entry of a new snapshot.
  package init(program: Program, raw: RawRecord) {
    fieldNames = raw.names
    rawValues = raw.values
    rawJSON = CompactJSON.array(raw.values)
    invalidBytesReplaced = raw.invalidBytesReplaced
    programID = program.id
    title = program.title
    category = program.category
    district = program.district
    isFree = program.isFree
    feeMinKRW = program.feeMinKRW
    feeMaxKRW = program.feeMaxKRW
    startDate = program.startDate?.description
    endDate = program.endDate?.description
    latitude = program.latitude
    longitude = program.longitude
    qualityFlags = program.qualityFlags.joinedNames

    var members: [(key: String, value: CompactJSON.Value)] = []
    for (key, field, keyPath) in Self.textFields {
      let value = program[keyPath: keyPath]
      if value.isEmpty { continue }
      if let i = raw.names.index(of: field), raw.values[i] == value {
        members.append((key, .integer(i)))
      } else if let i = raw.values.firstIndex(where: { $0 == value }) {
        members.append((key, .integer(i)))
      } else {
        members.append((key, .string(value)))
      }
    }
    if let day = program.registeredOn {
      members.append(("registered_on", .string(day.description)))
    }
    programText = CompactJSON.object(members)
  }
}

/// A stored value that does not read back; the store turns it into ``SnapshotStore/Error``.
package struct DecodingFailure: RaonError, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}

/// The canonical serialisation of a raw record, whose SHA-256 is its content hash.
///
/// `raon-raw-v1\n`, then for every field in source order its name as a netstring
/// (`<UTF-8 byte count>:<bytes>,`) followed by its value as a netstring, or `~` for a null,
/// then `|1` when invalid bytes were replaced, else `|0`. Netstrings make it unambiguous
/// without escaping; `SCHEMA.md` shows the same recipe in Python.
package enum RawContent {
  package static func canonicalText(of record: RawRecord) -> String {
    String(decoding: canonicalBytes(of: record), as: UTF8.self)
  }

  /// SHA-256 of ``canonicalText(of:)``. The bytes are gathered first and hashed in one
  /// call: fed to the hash four pieces a field, hashing was a measurable part of recording
  /// a year's new versions (bench/PROFILING.md, "Round four, session 6").
  package static func hash(of record: RawRecord) -> Data {
    var sha = SHA256()
    canonicalBytes(of: record).withUnsafeBytes { sha.update($0) }
    return Data(sha.finalize())
  }

  private static func canonicalBytes(of record: RawRecord) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32 + record.values.reduce(0) { $0 + ($1?.utf8.count ?? 0) + 24 } * 2)
    bytes += "raon-raw-v1\n".utf8
    for (name, value) in zip(record.names.names, record.values) {
      appendNetstring(name, to: &bytes)
      if let value {
        appendNetstring(value, to: &bytes)
      } else {
        bytes.append(UInt8(ascii: "~"))
      }
    }
    bytes += (record.invalidBytesReplaced ? "|1" : "|0").utf8
    return bytes
  }

  private static func appendNetstring(_ value: String, to bytes: inout [UInt8]) {
    bytes += String(value.utf8.count).utf8
    bytes.append(UInt8(ascii: ":"))
    bytes += value.utf8
    bytes.append(UInt8(ascii: ","))
  }
}

extension DecodingFailure {
  package var exitStatus: ExitStatus { .failure }
}
