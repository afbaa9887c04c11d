import RaonExport

/// Chromium is the ``Printer`` of the PDF post-step: ``ChromiumSession/concurrency`` pages
/// at once, each in a tab of its own.
extension ChromiumSession: Printer {}
