/// Whole numbers as people read them: thousands separated by commas, whatever the machine's
/// locale (`12,345`, `-7`).
public enum NumberText {
  public static func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, ch) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(ch)
    }
    return n < 0 ? "-" + out : out
  }
}
