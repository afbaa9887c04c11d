import GRDB
import RaonStoreCore

extension SnapshotStore {
  /// Why the store could not do what was asked (the same errors as every store).
  public typealias Error = StoreError

  /// Runs database work, turning what it throws into ``Error``.
  @discardableResult
  func translatingErrors<T>(
    _ wrap: (_ path: String, _ reason: String) -> Error, _ work: () throws -> T
  ) throws -> T {
    do {
      return try work()
    } catch let error as Error {
      throw error
    } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
      throw Error.busy(path: path, seconds: Int(Self.busyTimeout))
    } catch let error as DatabaseError {
      throw wrap(path, Self.reason(error))
    } catch let error as DecodingFailure {
      throw Error.corrupt(path: path, detail: error.description)
    } catch {
      throw wrap(path, String(describing: error))
    }
  }

  /// SQLite's message without GRDB's echo of the SQL and its arguments, which can be long
  /// and would carry catalog text into an error line.
  static func reason(_ error: DatabaseError) -> String {
    "\(error.message ?? "SQLite error") (SQLite code \(error.extendedResultCode.rawValue))"
  }
}
