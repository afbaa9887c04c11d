import RaonExport

/// Chromium is the ``Printer`` of the PDF post-step.
extension ChromiumSession: Printer {
  /// Pages one session prints at once.
  var concurrency: Int { 1 }
}
