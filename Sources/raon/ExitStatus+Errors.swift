import ArgumentParser
import RaonExport
import RaonIngest
import RaonPostgres
import RaonStore
import RaonWorkflow

// The exit status of every error type the command line can see that is declared outside
// it and outside WorkflowError. Each switch names every case, with no `default:`, so that a
// new case does not compile until it is given a status (see ``ExitStatusReporting``).

extension ValidationError: ExitStatusReporting {
  public var exitStatus: ExitStatus { .usage }
}

/// A malformed `--db`/`RAON_DB` URL: the command was given wrongly (in the config file it
/// is caught while the config is read, 78).
extension PostgresAddressError: ExitStatusReporting {
  public var exitStatus: ExitStatus { .usage }
}

extension SnapshotStore.Error: ExitStatusReporting {
  public var exitStatus: ExitStatus {
    switch self {
    case .cannotOpen, .notAStore, .newerSchema, .migrationFailed, .busy, .noSuchSnapshot,
      .recordFailed, .readFailed, .corrupt:
      return .failure
    }
  }
}

extension StoreLimits.Exceeded: ExitStatusReporting {
  public var exitStatus: ExitStatus { .failure }
}

extension ShrinkRefused: ExitStatusReporting {
  public var exitStatus: ExitStatus { .failure }
}

extension CatalogFileError: ExitStatusReporting {
  public var exitStatus: ExitStatus {
    switch self {
    case .unreadable: return .failure
    }
  }
}

extension CSVCatalogError: ExitStatusReporting {
  public var exitStatus: ExitStatus {
    switch self {
    case .noHeader, .missingColumns, .unterminatedQuote, .tooManyFields, .truncated: return .failure
    }
  }
}

extension JSONCatalogError: ExitStatusReporting {
  public var exitStatus: ExitStatus {
    switch self {
    case .syntax, .unrecognizedShape, .rowNotAnObject, .apiResult: return .failure
    }
  }
}

extension SpreadsheetError: ExitStatusReporting {
  public var exitStatus: ExitStatus {
    switch self {
    case .binaryExcel, .notAWorkbook, .damagedWorkbook, .noTable, .emptySheet, .tooManyRows, .tooLarge,
      .cutShort:
      return .failure
    }
  }
}

extension TextDecodingError: ExitStatusReporting {
  public var exitStatus: ExitStatus {
    switch self {
    case .converterUnavailable, .conversionFailed, .mixedEncodings: return .failure
    }
  }
}

extension OpenAPIError: ExitStatusReporting {
  public var exitStatus: ExitStatus {
    switch self {
    case .missingKey, .invalidURL, .badKey, .noData, .requestRejected, .unexpectedResult,
      .missingTotal, .httpStatus, .notJSON, .malformedJSON, .retriesExhausted, .incomplete:
      return .failure
    }
  }
}

extension TextExportError: ExitStatusReporting {
  public var exitStatus: ExitStatus {
    switch self {
    case .cannotCreateDirectory, .cannotWrite, .encoderUnavailable: return .failure
    }
  }
}

extension XLSXExportError: ExitStatusReporting {
  public var exitStatus: ExitStatus {
    switch self {
    case .cannotCreateWorkbook, .libraryCall, .cannotSave, .cannotMove: return .failure
    }
  }
}

extension ChromiumPrinter.Error: ExitStatusReporting {
  public var exitStatus: ExitStatus {
    switch self {
    case .notFound, .failed, .timedOut, .incomplete: return .failure
    }
  }
}

extension TrendJob.Error: ExitStatusReporting {
  public var exitStatus: ExitStatus {
    switch self {
    case .noSnapshotInRange: return .failure
    }
  }
}

extension StoreCopyJob.Error: ExitStatusReporting {
  public var exitStatus: ExitStatus {
    switch self {
    case .sameStore: return .usage  // `store copy A A`: the command was given wrongly
    case .targetNotEmpty, .mismatch, .idTaken, .anotherCopyWon, .targetFilledMeanwhile:
      return .failure
    }
  }
}
