import RaonExport

extension FormatRegistry {
  /// Parses `md,xlsx,csv,json,html,pdf` as `job` reads it: any order, any case, a format's
  /// aliases (`markdown`, `excel`) accepted, `all` meaning every format of the job that needs
  /// nothing outside Raon (``all(for:)``); nothing listed means the job's defaults.
  ///
  /// - Throws: ``WorkflowError/unknownFormat(_:known:)`` for a name no entry has.
  public func parse(_ texts: [String], for job: FormatJob) throws -> [ReportFormat] {
    var formats: [ReportFormat] = []
    for text in texts.flatMap({ $0.split(separator: ",") }) {
      if text.trimmingCharacters(in: .whitespaces).lowercased() == "all" {
        for format in all(for: job) where !formats.contains(format) { formats.append(format) }
        continue
      }
      guard let format = format(named: String(text)) else {
        throw WorkflowError.unknownFormat(String(text), known: self.formats.map(\.rawValue))
      }
      if !formats.contains(format) { formats.append(format) }
    }
    return formats.isEmpty ? defaults(for: job) : formats
  }
}
