import ArgumentParser
import RaonExport

extension ReportLanguage: ExpressibleByArgument {}
extension CSVEncoding: ExpressibleByArgument {}
extension CSVHeaders: ExpressibleByArgument {}
