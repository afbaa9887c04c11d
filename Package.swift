// swift-tools-version:6.1
//
// Raon keeps a history of Seoul's cultural-events catalog (서울시 문화행사 정보) and turns it
// into statistics, spreadsheets and weekly reports. Data flows one way:
//
//   source bytes → RaonIngest (raw records) → RaonCore (normalised programs)
//     → RaonStore (snapshots) → RaonAnalytics (figures) → RaonDocument (the document)
//     → RaonExport (files)
//
// RaonWorkflow composes those steps into the jobs the `raon` command runs.

import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6)
]

// Run on every module of Raon: the build stops at an error type without an exit status
// (one that conforms to `Error` but not to `RaonError`).
let errorStatusCheck: [Target.PluginUsage] = [.plugin(name: "ErrorStatusCheck")]

let package = Package(
  name: "Raon",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "raon", targets: ["raon"]),
    .library(name: "RaonCore", targets: ["RaonCore"]),
    .library(name: "RaonAnalytics", targets: ["RaonAnalytics"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    // The config file (`raon.toml`): a full TOML 1.0 parser (toml++ underneath).
    .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    // Reading `.xlsx` input (a ZIP of XML parts).
    .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    // SHA-256 for ids and content hashes (BoringSSL's assembly; measured in raon-bench sha).
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    // The PostgreSQL store's client (SwiftNIO underneath); only RaonPostgres imports it.
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
  ],
  targets: [
    // The C library libxlsxwriter (Debian: libxlsxwriter-dev). Only RaonExport imports it.
    .systemLibrary(
      name: "CXlsxWriter",
      pkgConfig: "xlsxwriter",
      providers: [.apt(["libxlsxwriter-dev"])]
    ),

    // The deflate level of libxlsxwriter's ZIP container, which the library does not expose
    // (xlsx_deflate.c says how and why). Only RaonExport imports it.
    .target(name: "CXlsxDeflate", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("z")]),

    // The C library libcurl (Debian: libcurl4-openssl-dev), for its SMTP client. Only
    // RaonMail imports it.
    .systemLibrary(
      name: "CCurl",
      pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]
    ),

    // glibc's malloc.h (malloc_trim): RaonWorkflow gives freed memory back between steps.
    .systemLibrary(name: "CMalloc"),

    // The C library libxml2 (Debian: libxml2-dev): the `.xlsx` reader feeds each part to its
    // push parser as the part inflates. Only RaonIngest imports it.
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
    ),

    // What an error of Raon's is: `RaonError`, which every error type of every module
    // conforms to, with the exit status it calls for (`ExitStatus`). No dependencies.
    .target(name: "RaonErrors", swiftSettings: swiftSettings),

    // The build's check that every error type of a module is a `RaonError`: the plugin, and
    // the tool it runs over the module's files (a scan of declarations, no dependencies).
    .executableTarget(name: "raon-error-check", path: "Plugins/ErrorStatusCheckTool"),
    .plugin(name: "ErrorStatusCheck", capability: .buildTool(), dependencies: ["raon-error-check"]),

    // The threads, locks, waits and signals: a one-slot hand-over between a maker and a
    // user, a result made on a thread of its own, a parallel map, a value under a lock
    // (`Guarded`) or a condition (`Monitor`), a task's sleep and time limit, the
    // interruption. The one place Raon starts threads, locks, waits or sleeps; the other
    // modules use these types.
    .target(
      name: "RaonConcurrency", dependencies: ["RaonErrors"], swiftSettings: swiftSettings,
      plugins: errorStatusCheck),

    // The normalised program and everything pure about it: dates, fees, coordinates,
    // districts, identities, quality flags, ISO weeks, hashing. No I/O.
    .target(
      name: "RaonCore", dependencies: ["RaonErrors", .product(name: "Crypto", package: "swift-crypto")],
      swiftSettings: swiftSettings, plugins: errorStatusCheck),

    // Readers that turn source bytes into raw records (CSV with encoding detection, the
    // portal's JSON download, the Open API's pages) and the Open API client.
    // `.xlsx` input is read through ZIPFoundation and libxml2's push parser.
    .target(
      name: "RaonIngest",
      dependencies: [
        "RaonCore", "RaonConcurrency", "RaonErrors", "CLibXML2",
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ],
      swiftSettings: swiftSettings,
      plugins: errorStatusCheck
    ),

    // The snapshot store's core, whatever database keeps it: the `SnapshotStoring`
    // protocol, its values and errors, the version encoding, and the store's algorithm
    // (record, read, delete, trend steps) written once over a small connection protocol.
    .target(
      name: "RaonStoreCore", dependencies: ["RaonCore", "RaonConcurrency", "RaonErrors"],
      swiftSettings: swiftSettings, plugins: errorStatusCheck),

    // The SQLite snapshot store (through GRDB): the core's algorithm on an SQLite file,
    // its schema and migrations. Migrations run on open. Re-exports RaonStoreCore.
    .target(
      name: "RaonStore",
      dependencies: [
        "RaonCore", "RaonConcurrency", "RaonStoreCore", .product(name: "GRDB", package: "GRDB.swift"),
        // The C API, for binding a version's columns straight into the recording's statements.
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ],
      exclude: ["SCHEMA.md"],
      swiftSettings: swiftSettings,
      plugins: errorStatusCheck
    ),

    // The PostgreSQL snapshot store: the core's algorithm with the same tables, ids and
    // guarantees as the SQLite store, in a schema of its own (`raon`), through PostgresNIO.
    // The only target that imports NIO; it does not link GRDB.
    .target(
      name: "RaonPostgres",
      dependencies: [
        "RaonCore", "RaonConcurrency", "RaonErrors", "RaonStoreCore",
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ],
      exclude: ["SCHEMA-postgresql.md"],
      swiftSettings: swiftSettings,
      plugins: errorStatusCheck
    ),

    // Pure analytics: group statistics, bands, cross tables, data quality, the week,
    // snapshot comparison and trends. Values in, values out.
    .target(
      name: "RaonAnalytics", dependencies: ["RaonCore"], swiftSettings: swiftSettings,
      plugins: errorStatusCheck),

    // The report as a document, in no format yet: the figures composed into page 1 and its
    // attachments (sections, paragraphs, tables of typed cells, program lists, chart
    // descriptions), the comparison and the trend, and every word they use (Korean and
    // English). Pure: figures in, a value out.
    .target(
      name: "RaonDocument", dependencies: ["RaonCore", "RaonAnalytics"], swiftSettings: swiftSettings,
      plugins: errorStatusCheck),

    // Renderers of that document: Markdown with SVG charts, HTML, XLSX (libxlsxwriter), CSV,
    // JSON; the format registry. They take the composed document (and the programs, handed
    // over by the job, for the formats that list every program) and return bytes or write
    // files; never the store, never another program.
    .target(
      name: "RaonExport",
      dependencies: [
        "RaonCore", "RaonConcurrency", "RaonErrors", "RaonAnalytics", "RaonDocument", "CXlsxWriter",
        "CXlsxDeflate",
      ],
      swiftSettings: swiftSettings,
      plugins: errorStatusCheck
    ),

    // Mail: a message and its MIME bytes (RFC 2047 subjects, RFC 2231 file names, base64
    // parts) and the weekly message's bodies, all pure; and the SMTP transport behind a
    // small protocol, through libcurl (STARTTLS required, AUTH, a private CA).
    .target(
      name: "RaonMail", dependencies: ["RaonCore", "RaonErrors", "CCurl"], swiftSettings: swiftSettings,
      plugins: errorStatusCheck),

    // The jobs the command line runs (snapshot, report, diff), composed from the modules
    // above, with their effects (clock, environment, file system) injected. Holds the
    // bundled sample catalog.
    .target(
      name: "RaonWorkflow",
      dependencies: [
        "RaonCore", "RaonConcurrency", "RaonErrors", "RaonIngest", "RaonStore", "RaonPostgres",
        "RaonAnalytics", "RaonDocument", "RaonExport", "RaonMail", "CMalloc", .product(name: "TOMLKit", package: "TOMLKit"),
      ],
      resources: [.copy("Resources/sample")],
      swiftSettings: swiftSettings,
      plugins: errorStatusCheck
    ),

    // The `raon` command line: its commands, argument parsing and printing only, and the
    // exit status of each outcome. A library so that tests parse and validate arguments
    // in-process (`@testable import RaonCLI`). It names the modules whose types it uses: the
    // jobs, options, store handles, the interruption, the errors' status.
    .target(
      name: "RaonCLI",
      dependencies: [
        "RaonWorkflow", "RaonCore", "RaonConcurrency", "RaonErrors", "RaonStore", "RaonDocument", "RaonExport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings,
      plugins: errorStatusCheck
    ),

    // The `raon` executable: one file that runs RaonCLI's entry.
    .executableTarget(
      name: "raon", dependencies: ["RaonCLI"], swiftSettings: swiftSettings, plugins: errorStatusCheck),

    // Benchmarks on synthetic catalogs (run in release; see `make bench`). Not a test.
    .executableTarget(
      name: "raon-bench",
      dependencies: ["RaonCore", "RaonStore", "RaonAnalytics", "RaonDocument", "RaonExport", "CXlsxWriter"],
      path: "Benchmarks/raon-bench",
      swiftSettings: swiftSettings
    ),

    // MARK: - Tests

    // Shared test helpers: fixture paths, temporary directories, the loopback API server.
    .target(
      name: "TestSupport",
      dependencies: [
        "RaonCore"
      ],
      path: "Tests/TestSupport",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "RaonCoreTests", dependencies: ["RaonCore", "TestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "RaonConcurrencyTests", dependencies: ["RaonConcurrency"],
      swiftSettings: swiftSettings),
    // The build's check that every error type has an exit status (its scan of declarations).
    .testTarget(
      name: "ErrorStatusCheckTests", dependencies: ["raon-error-check"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "RaonIngestTests", dependencies: ["RaonIngest", "RaonCore", "TestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "RaonStoreTests",
      dependencies: [
        "RaonStore", "RaonAnalytics", "RaonCore", "TestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: swiftSettings),
    // The PostgreSQL store against a private server on 127.0.0.1, side by side with SQLite.
    .testTarget(
      name: "RaonPostgresTests",
      dependencies: [
        "RaonPostgres", "RaonStore", "RaonStoreCore", "RaonIngest", "RaonCore", "RaonConcurrency", "TestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "RaonAnalyticsTests", dependencies: ["RaonAnalytics", "RaonCore", "TestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "RaonExportTests",
      dependencies: [
        "RaonExport", "RaonDocument", "RaonAnalytics", "RaonCore", "RaonConcurrency", "CXlsxWriter", "CXlsxDeflate",
        "TestSupport",
      ],
      exclude: ["Golden", "Scripts"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "RaonDocumentTests", dependencies: ["RaonDocument", "RaonAnalytics", "RaonCore", "TestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "RaonMailTests", dependencies: ["RaonMail", "RaonCore", "CCurl", "TestSupport"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "RaonWorkflowTests",
      dependencies: [
        "RaonWorkflow", "RaonDocument", "RaonIngest", "RaonStore", "RaonAnalytics", "RaonExport", "RaonCore", "RaonConcurrency",
        "RaonMail", "RaonErrors", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: swiftSettings),
    // The command line: its arguments, usage and error messages in-process (RaonCLI, as
    // argument-parser's own tests do), and end to end through the built `raon` binary, the
    // way a user runs it, where the process is the thing tested.
    .testTarget(
      name: "RaonCLITests",
      dependencies: [
        "RaonCLI", "RaonWorkflow", "TestSupport", "RaonIngest", "RaonCore", "RaonConcurrency",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      exclude: ["Scripts"],
      swiftSettings: swiftSettings),
  ]
)
