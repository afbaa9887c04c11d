import Foundation
import Testing

@testable import RaonWorkflow

/// Which store `--db`, `RAON_DB` and `db =` name: a path, `sqlite:PATH`, or a PostgreSQL URL.
@Suite struct StoreAddressTests {
  let environment = RaonEnvironment(variables: ["HOME": "/tmp/h"], workingDirectory: URL(fileURLWithPath: "/work"))

  @Test func pathsAndSqliteURLsNameSQLiteFiles() throws {
    #expect(try StoreAddress.resolve(explicit: "a/b.sqlite", environment: environment) == .sqlite(URL(fileURLWithPath: "/work/a/b.sqlite")))
    #expect(try StoreAddress.resolve(explicit: "sqlite:/srv/raon.sqlite", environment: environment) == .sqlite(URL(fileURLWithPath: "/srv/raon.sqlite")))
    #expect(try StoreAddress.resolve(explicit: nil, environment: environment) == .sqlite(URL(fileURLWithPath: "/tmp/h/.local/share/raon/raon.sqlite")))
    #expect(throws: WorkflowError.emptyPath(option: "--db")) { try StoreAddress.resolve(explicit: "sqlite:", environment: environment) }
    let unset = RaonEnvironment(variables: ["HOME": "/tmp/h", "RAON_DB": " "])
    #expect(throws: WorkflowError.emptyPath(option: "RAON_DB")) { try StoreAddress.resolve(explicit: nil, environment: unset) }
  }

  @Test func postgresURLsNamePostgreSQLAndAreShownWithoutThePassword() throws {
    let url = "postgresql://raon:s3cret@db.example:5432/culture?schema=city"
    let variable = RaonEnvironment(variables: ["HOME": "/tmp/h", "RAON_DB": url])
    let address = try StoreAddress.resolve(explicit: nil, environment: variable)
    #expect(address == .postgres(url))
    #expect(!address.display.contains("s3cret"))
    #expect(try StoreAddress.resolve(explicit: "postgres://u@h/d", environment: environment) == .postgres("postgres://u@h/d"))
  }

  @Test func aBadPostgresURLInTheConfigNamesItsLineAndNotThePassword() {
    let text = "lang = \"ko\"\ndb = \"postgresql://raon:s3cret@db.example/culture?schema=bad-name\"\n"
    do {
      _ = try RaonConfig.parse(text, path: "raon.toml")
      Issue.record("a bad schema name was accepted")
    } catch let error as WorkflowError {
      guard case .config(let path, let line, let message) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(path == "raon.toml" && line == 2)
      #expect(message.contains("schema=") && !message.contains("s3cret"), "\(message)")
    } catch {
      Issue.record("\(error)")
    }
  }

  /// Issue 37: `--db postgresq://…` or `mysql://x/y` became a file path (a store was made
  /// under `./postgresq:/…`, exit 0). A URL of a database Raon does not know is refused,
  /// without echoing the rest of the URL (it may hold a password); a path with a colon
  /// elsewhere is still a path.
  @Test func aURLOfADatabaseRaonDoesNotKnowIsRefused() throws {
    for (value, scheme) in [
      ("postgresq://raon:s3cret@db.example/culture", "postgresq"), ("mysql://x/y", "mysql"),
      ("MySQL+SSL://h/d", "MySQL+SSL"), ("file:///srv/raon.sqlite", "file"),
    ] {
      #expect(throws: WorkflowError.unknownStoreScheme(scheme, option: "--db")) {
        try StoreAddress.resolve(explicit: value, environment: environment)
      }
      let variable = RaonEnvironment(variables: ["HOME": "/tmp/h", "RAON_DB": value])
      #expect(throws: WorkflowError.unknownStoreScheme(scheme, option: "RAON_DB")) {
        try StoreAddress.resolve(explicit: nil, environment: variable)
      }
      let message = WorkflowError.unknownStoreScheme(scheme, option: "--db").description
      #expect(message.contains("postgresql://") && message.contains("sqlite:") && !message.contains("s3cret"))
    }
    for path in ["backup:2024.sqlite", "a/b:c.sqlite", "./x://y", "://z.sqlite", "1abc://x"] {
      guard case .sqlite = try StoreAddress.resolve(explicit: path, environment: environment) else {
        Issue.record("\(path) is not taken for a file")
        continue
      }
    }
    #expect(WorkflowError.unknownStoreScheme("mysql", option: "--db").exitStatus == .usage)
  }

  @Test func aURLOfADatabaseRaonDoesNotKnowInTheConfigNamesItsLine() {
    do {
      _ = try RaonConfig.parse("lang = \"ko\"\ndb = \"mysql://u:s3cret@h/d\"\n", path: "raon.toml")
      Issue.record("a mysql:// store was accepted")
    } catch let error as WorkflowError {
      guard case .config(let path, let line, let message) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(path == "raon.toml" && line == 2)
      #expect(message.contains("'mysql://'") && !message.contains("s3cret"), "\(message)")
    } catch {
      Issue.record("\(error)")
    }
  }
}
