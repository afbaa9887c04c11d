import ArgumentParser
import RaonWorkflow

@main
struct Raon: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "raon",
    abstract: "Keep a history of Seoul's cultural-events catalog and report on it."
  )
}
