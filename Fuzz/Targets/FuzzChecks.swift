// Invariants every normalised program must satisfy, whatever the input. Shared by all
// fuzz targets (compiled into each).
enum FuzzChecks {
  static func check(_ p: Program) {
    precondition(!p.id.isEmpty, "empty id")
    precondition(p.id.hasPrefix("cult:") || p.id.hasPrefix("h:"), "odd id \(p.id)")
    if let a = p.feeMinKRW, let b = p.feeMaxKRW {
      precondition(a <= b, "fee min \(a) > max \(b) for \(p.feeText.debugDescription)")
      precondition(a >= 0, "negative fee for \(p.feeText.debugDescription)")
    }
    precondition((p.feeMinKRW == nil) == (p.feeMaxKRW == nil), "half a fee range")
    if p.isFree { precondition(p.feeMinKRW == 0 && p.feeMaxKRW == 0, "free but fee") }
    if let lat = p.latitude { precondition(lat.isFinite, "latitude \(lat)") }
    if let lon = p.longitude { precondition(lon.isFinite, "longitude \(lon)") }
    if let s = p.startDate, let e = p.endDate {
      _ = s.description
      _ = e.description
      precondition((e < s) == p.qualityFlags.contains(.endBeforeStart), "end_before_start")
    }
    _ = p.durationDays
    precondition(p.csvValues.count == Program.csvColumns.count, "csv width")
  }
}
