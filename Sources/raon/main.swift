import RaonCLI

// The whole command lives in RaonCLI, where tests reach it in-process.
await RaonMain.main()
