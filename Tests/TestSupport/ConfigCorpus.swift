/// Malformed `raon.toml` files, made deterministically from valid ones by the mutations a
/// fuzzer makes (bytes and TOML's own tokens inserted, deleted, replaced, lines cut, doubled
/// and swapped), plus the inputs that aborted toml++ inside TOMLKit (issue 37). The same
/// seed gives the same files on every machine.
public enum ConfigCorpus {
  /// Valid configs using every kind of TOML value Raon's config may meet.
  public static let seeds: [String] = [
    """
    # the weekly job
    db = "/var/lib/raon/raon.sqlite"
    formats = ["md", "xlsx", "csv", "json"]
    out = "reports"
    lang = "ko"
    api_base = "http://openapi.seoul.go.kr:8088"
    csv_encoding = "utf8-bom"
    csv_headers = "en"
    chart_top_n = 10

    """,
    "[report]\nlang = \"en\" # English\nformats = [\n  \"md\",  # the report\n  \"json\",\n]\n",
    "out = \"\"\"\nreports\\\n   /weekly\"\"\"\ndb = 'C:\\raon\\raon.sqlite'\n\"lang\" = 'ko'\n",
    "a.b.c = 1\n[t]\nx = { y = 1, z = [1, 2.5, -3e2, +inf, nan] }\n[[arr]]\nk = true\n",
    "d1 = 1979-05-27T07:32:00Z\nd2 = 1979-05-27 07:32:00.999-07:00\nd3 = 1979-05-27\nt = 07:32:00\n",
    "h = 0xDEAD_BEEF\no = 0o755\nb = 0b1101\nn = -9_223_372_036_854_775_808\ns = \"\\u00e9\\t\"\r\n",
    "[mail]\nto = [\"a@example.org\"]\n[weekly]\nat = \"Mon 08:00\"\n",
  ]

  /// Inputs that made toml++ 3.4 abort (an `assert` in `parse_key` or `parse_value`)
  /// before Raon checked the grammar first.
  public static let formerAborts: [String] = [
    "[\n", "[", "[[[1]]]\n", "[[[a]]]\n", "[[[]]\n", "[[=\n", "db = [0, }\n", "x = [}\n",
    "Qd= [}5,2%QQQ:['d$\u{17}", "[\n\n[report]\nlang = \"en\"\n", "lang = \"ko\"\n[ \n",
    "[a.\n", "[a.]\n", "[.a]\n", "[[a.]]\n", "x = [,]\n", "x = [1,,2]\n", "x = { , }\n",
  ]

  /// Pieces of TOML a mutation inserts.
  static let tokens = [
    "[", "]", "[[", "]]", "{", "}", "=", ",", ".", "#", "\"", "'", "\"\"\"", "'''", "\\", "\\u", "\\U0011",
    "\n", "\r", "\r\n", "\t", " ", "true", "inf", "nan", "0x", "0o", "0b", "_", "e+", "1979-05-27",
    "T07:32:60", "Z", "+25:00", "\u{7F}", "\u{1B}", "가", "\u{FEFF}", "lang", "db", "[report]", "-", "+", ":",
  ]

  /// `count` malformed (or, by chance, valid) configs for `seed`.
  public static func mutants(count: Int, seed: UInt64) -> [String] {
    var random = SplitMix64(seed: seed)
    var out: [String] = []
    out.reserveCapacity(count)
    while out.count < count {
      var text = Array(seeds[random.next(seeds.count)].utf8)
      for _ in 0...random.next(4) { mutate(&text, &random) }
      out.append(String(decoding: text, as: UTF8.self))
    }
    return out
  }

  private static func mutate(_ text: inout [UInt8], _ random: inout SplitMix64) {
    let at = text.isEmpty ? 0 : random.next(text.count + 1)
    switch random.next(8) {
    case 0:  // a token inserted
      text.insert(contentsOf: Array(tokens[random.next(tokens.count)].utf8), at: at)
    case 1:  // a byte deleted
      if at < text.count { text.remove(at: at) }
    case 2:  // a run deleted
      let end = min(text.count, at + 1 + random.next(12))
      text.removeSubrange(at..<end)
    case 3:  // a byte replaced by another ASCII byte
      if at < text.count { text[at] = UInt8(random.next(0x80)) }
    case 4:  // cut short
      text.removeSubrange(at...)
    case 5:  // a piece repeated
      let end = min(text.count, at + 1 + random.next(16))
      text.insert(contentsOf: Array(text[at..<end]), at: end)
    case 6:  // a line swapped with another
      var lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      if lines.count > 1 {
        lines.swapAt(random.next(lines.count), random.next(lines.count))
        text = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
      }
    default:  // a bracket or a quote dropped in
      text.insert([UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: "'")][random.next(4)], at: at)
    }
  }
}
