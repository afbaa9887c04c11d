import Foundation
import RaonCore
import RaonStore
import Testing
import TestSupport

@testable import RaonPostgres

/// What only the PostgreSQL store has: its schema, its URL and credentials, its lock.
@Suite(.serialized) struct PostgresStoreTests {
  @Test func theStoreLivesInItsOwnSchemaAndLeavesOtherTablesAlone() throws {
    guard let server = PostgresTestServer.available() else { return }
    let schema = PostgresTestServer.freshSchema()
    let table = "public.\(schema)_theirs"
    try server.psql("CREATE TABLE \(table) (x int); INSERT INTO \(table) VALUES (42)")
    let store = try PostgresSnapshotStore(url: server.url(schema: schema), environment: server.environment)
    try store.record(Catalogs.snapshot(Catalogs.sample, day: 0))
    #expect(try server.psql("SELECT x FROM \(table)") == "42\n")
    let tables = try server.psql(
      "SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = '\(schema)'")
    #expect(
      tables
        == "field_set,presence,program_version,snapshot,snapshot_program,snapshot_sequence,store_catalog,store_info,weekly_delivery,weekly_message,weekly_run\n"
    )
    #expect(try server.psql("SELECT count(*) FROM \(schema).snapshot_program WHERE snapshot_id = 1") == "\(Catalogs.sample.count)\n")
    // Opening again (a second process, a newer run) changes nothing.
    _ = try PostgresSnapshotStore(url: server.url(schema: schema), environment: server.environment)
    #expect(try server.psql("SELECT value FROM \(schema).store_info WHERE key = 'schema_version'") == "4\n")
  }

  @Test func aSchemaHoldingOtherTablesIsRefusedUntouched() throws {
    guard let server = PostgresTestServer.available() else { return }
    let schema = PostgresTestServer.freshSchema()
    try server.psql("CREATE SCHEMA \(schema); CREATE TABLE \(schema).snapshot (id text)")
    do {
      _ = try PostgresSnapshotStore(url: server.url(schema: schema), environment: server.environment)
      Issue.record("a schema with someone else's tables was taken")
    } catch let error as SnapshotStore.Error {
      #expect("\(error)".contains("not a Raon store") && "\(error)".contains("?schema="), "\(error)")
      #expect(!"\(error)".contains("\n"))
    }
    #expect(try server.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = '\(schema)'") == "1\n")
  }

  @Test func aStoreANewerRaonUpgradedIsRefused() throws {
    guard let server = PostgresTestServer.available() else { return }
    let schema = PostgresTestServer.freshSchema()
    _ = try PostgresSnapshotStore(url: server.url(schema: schema), environment: server.environment)
    try server.psql("UPDATE \(schema).store_info SET value = '9' WHERE key = 'schema_version'")
    for readOnly in [false, true] {
      #expect(throws: SnapshotStore.Error.newerSchema(path: server.url(schema: schema), found: 9, supported: 4)) {
        try PostgresSnapshotStore(url: server.url(schema: schema), environment: server.environment, readOnly: readOnly)
      }
    }
  }

  @Test func readOnlyOpeningCreatesNothing() throws {
    guard let server = PostgresTestServer.available() else { return }
    let schema = PostgresTestServer.freshSchema()
    #expect(throws: SnapshotStore.Error.self) {
      try PostgresSnapshotStore(url: server.url(schema: schema), environment: server.environment, readOnly: true)
    }
    #expect(try server.psql("SELECT count(*) FROM pg_namespace WHERE nspname = '\(schema)'") == "0\n")
  }

  @Test func thePasswordIsNeverInAMessage() throws {
    guard let server = PostgresTestServer.available() else { return }
    let url = server.urlWithPassword()
    let store = try PostgresSnapshotStore(url: url, environment: [:])
    #expect(!store.location.contains(PostgresTestServer.password))
    #expect(store.location.hasPrefix("postgresql://postgres@127.0.0.1:"))
    do {
      _ = try store.programs(inSnapshot: 1)
    } catch {
      #expect(!"\(error)".contains(PostgresTestServer.password) && "\(error)".contains(store.location))
    }
    let wrong = "wrong-\(PostgresTestServer.password)"
    do {
      _ = try PostgresSnapshotStore(
        url: "postgresql://postgres:\(wrong)@127.0.0.1:\(server.port)/postgres", environment: [:])
      Issue.record("a wrong password was accepted")
    } catch {
      #expect(!"\(error)".contains(wrong) && "\(error)".contains("password authentication failed"), "\(error)")
    }
    do {
      _ = try PostgresSnapshotStore(url: "postgresql://u:\(wrong)@127.0.0.1:1/x?nonsense=1", environment: [:])
    } catch {
      #expect(!"\(error)".contains(wrong), "\(error)")
    }
  }

  @Test func credentialsComeFromTheURLThePasswordVariableOrThePasswordFile() throws {
    let base = "postgresql://ana@db.example:5433/culture"
    #expect(try PostgresAddress(url: "postgresql://ana:s%40cret@db.example/culture", environment: [:]).password == "s@cret")
    #expect(try PostgresAddress(url: base, environment: ["PGPASSWORD": "from-env"]).password == "from-env")
    let folder = try Fixtures.temporaryDirectory("raon-pgpass")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("pgpass")
    try "# comment\nother:5433:culture:ana:no\ndb.example:5433:*:ana:pa\\:ss\n*:*:*:*:last\n".write(
      to: file, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    let fromFile = try PostgresAddress(url: base, environment: ["PGPASSFILE": file.path])
    #expect(fromFile.password == "pa:ss")
    #expect(fromFile.redacted == "postgresql://ana@db.example:5433/culture")
    // libpq ignores a password file others can read; so does Raon.
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    #expect(try PostgresAddress(url: base, environment: ["PGPASSFILE": file.path]).password == nil)
    // And a real server accepts a password found in the file.
    if let server = PostgresTestServer.available() {
      try "127.0.0.1:\(server.port):postgres:postgres:\(PostgresTestServer.password)\n".write(
        to: file, atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
      let store = try PostgresSnapshotStore(url: server.url(), environment: ["PGPASSFILE": file.path])
      #expect(try store.snapshots().isEmpty)
    }
  }

  /// With a server that offers TLS, the default (`sslmode=prefer`) encrypts; `disable`
  /// does not; `verify-full` refuses a certificate no authority signed.
  @Test func tlsWhenTheServerOffersIt() throws {
    guard let server = PostgresTestServer.available() else { return }
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
      print("SKIPPED tlsWhenTheServerOffersIt: no /usr/bin/openssl to make a certificate")
      return
    }
    try server.enableTLS()
    func encrypted(_ query: String) throws -> Bool {
      let address = try PostgresAddress(url: server.url() + query, environment: server.environment)
      let connection = try BlockingConnection(address)
      defer { connection.close() }
      let row = try connection.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").first
      return try row?.decode(Bool.self) ?? false
    }
    #expect(try encrypted(""))
    #expect(try encrypted("&sslmode=require"))
    #expect(try !encrypted("&sslmode=disable"))
    #expect(throws: (any Error).self) { try encrypted("&sslmode=verify-full") }
  }

  @Test func badURLsAreRefusedWithOneLineSayingWhatToFix() {
    for url in [
      "postgresql://u@h/db?schema=a;drop", "postgresql://u@h/db?schema=1abc", "postgresql://u@h/db?sslmode=maybe",
      "postgresql://u@h/db?bogus=x", "postgresql://u:pw@h:99999/db", "postgresql://u@h/db?user=",
    ] {
      do {
        _ = try PostgresAddress(url: url, environment: [:])
        Issue.record("\(url) was accepted")
      } catch {
        #expect(!"\(error)".contains("pw@") && "\(error)".contains("fix --db"), "\(error)")
      }
    }
    #expect(PostgresAddress.redact("postgres://a:b:c@h/d") == "postgres://a:***@h/d")
  }

  /// `?password=` (and `?user=`) as libpq reads them; the password was
  /// printed back in "unknown parameter 'password'".
  @Test func aPasswordGivenAsAParameterIsUsedAndNeverShown() throws {
    let secret = "S3cretPw"
    let given = try PostgresAddress(
      url: "postgresql://raon@127.0.0.1:5432/culture?password=\(secret)&schema=city", environment: ["PGPASSWORD": "other"])
    #expect(given.password == secret && given.user == "raon" && given.schema == "city")
    #expect(!given.redacted.contains(secret))
    let both = try PostgresAddress(url: "postgresql://h/culture?user=ana&password=p%26w", environment: [:])
    #expect(both.user == "ana" && both.password == "p&w" && both.database == "culture")
    #expect(try PostgresAddress(url: "postgresql://h?user=ana", environment: [:]).database == "ana")
    // Redacted wherever the URL is quoted, a mistyped name's value too.
    for url in [
      "postgresql://raon@h/culture?password=\(secret)", "postgresql://raon@h/culture?sslmode=x&password=\(secret)",
      "postgresql://raon@h/culture?user=u&password=\(secret)&schema=1bad", "postgresql://raon@h/culture?passwd=\(secret)",
      "postgresql://raon@h:99999/culture?password=\(secret)", "postgresql://raon@h/culture?Password=\(secret)&x=1",
    ] {
      #expect(!PostgresAddress.redact(url).contains(secret), "\(PostgresAddress.redact(url))")
      do {
        _ = try PostgresAddress(url: url, environment: [:])
        #expect(!url.contains("sslmode") && !url.contains("1bad") && !url.contains("99999") && url.contains("?password"), "\(url)")
      } catch {
        #expect(!"\(error)".contains(secret) && "\(error)".contains("fix --db"), "\(error)")
      }
    }
    #expect(PostgresAddress.redact("postgresql://u@h/d?schema=s&password=x&sslmode=require") == "postgresql://u@h/d?schema=s&password=***&sslmode=require")
  }

  /// Two writers and a reader at once (each with its own connection): every recording
  /// commits whole, ids are 1…N, and the reader only ever sees whole snapshots.
  @Test func writersNeverInterleaveAndReadersSeeWholeSnapshots() throws {
    guard let server = PostgresTestServer.available() else { return }
    let url = server.url()
    let store = try PostgresSnapshotStore(url: url, environment: server.environment)
    let errors = ErrorBox()
    let group = DispatchGroup()
    let environment = server.environment
    for writer in 0..<2 {
      DispatchQueue.global().async(group: group) {
        do {
          let mine = try PostgresSnapshotStore(url: url, environment: environment)
          for i in 0..<3 {
            let entries = writer == 0 ? Catalogs.sample : Catalogs.nextWeek
            try mine.record(Catalogs.snapshot(entries, day: writer * 100 + i, source: "writer\(writer)"))
          }
        } catch {
          errors.append("\(error)")
        }
      }
    }
    let done = Flag()
    DispatchQueue.global().async(group: group) {
      do {
        let reader = try PostgresSnapshotStore(url: url, environment: environment, readOnly: true)
        while !done.isSet {
          for info in try reader.snapshots() {
            let count = try reader.programs(inSnapshot: info.id).count
            if count != info.programCount { errors.append("snapshot \(info.id): \(count) of \(info.programCount)") }
          }
        }
      } catch {
        errors.append("reader: \(error)")
      }
    }
    while (try? store.snapshots().count) ?? 0 < 6, errors.all.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
    done.set()
    group.wait()
    #expect(errors.all.isEmpty, "\(errors.all)")
    let infos = try store.snapshots()
    #expect(infos.map(\.id) == [1, 2, 3, 4, 5, 6])
    for info in infos {
      let expected = info.source == "writer0" ? Catalogs.sample.count : Catalogs.nextWeek.count
      #expect(info.programCount == expected)
      #expect(try store.programs(inSnapshot: info.id).count == expected)
    }
  }
}

final class ErrorBox: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func append(_ text: String) { lock.withLock { items.append(text) } }
  var all: [String] { lock.withLock { items } }
}

final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}
