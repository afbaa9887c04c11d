import Foundation
import PackagePlugin

/// Runs `raon-error-check` over every Swift file of a module before it is compiled: the
/// build stops, naming the file and line, at an error type that conforms to `Error` but not
/// to `RaonError` (which gives its exit status). So a new error type cannot reach the
/// command line without a status: `raon` would otherwise exit 1 for it, whatever it means.
@main
struct ErrorStatusCheck: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let module = target as? SourceModuleTarget else { return [] }
    let sources = module.sourceFiles(withSuffix: "swift").map(\.url)
    // The check's witness: a Swift file holding only a comment, compiled with the module.
    let output = context.pluginWorkDirectoryURL.appending(path: "ErrorStatusCheck-\(target.name).swift")
    return [
      .buildCommand(
        displayName: "Checking that every error type of \(target.name) has an exit status",
        executable: try context.tool(named: "raon-error-check").url,
        arguments: [output.path] + sources.map(\.path),
        inputFiles: sources,
        outputFiles: [output])
    ]
  }
}
