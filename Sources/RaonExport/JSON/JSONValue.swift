import RaonCore
import RaonDocument

/// A JSON document with its object keys in the order they were given, and the emitter
/// that prints it — hand-rolled so the output is byte-for-byte deterministic (no
/// dictionary ordering, no locale, integers never printed as `3.0`).
///
/// Printing: two-space indentation, `"key": value`, empty arrays and objects as `[]` and
/// `{}`; strings keep Korean and every non-ASCII character as UTF-8, escaping only `"`,
/// `\`, control characters and U+2028/U+2029 (which break JavaScript string literals).
public enum JSONValue: Sendable {
  case null
  case bool(Bool)
  case int(Int)
  /// Written as the shortest decimal (`2.5`, `3`); NaN and infinities become `null`.
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// An integer, or `null`.
  public static func int(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }
  /// A number, or `null`.
  public static func number(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }

  /// The document, pretty-printed, ending in a newline.
  public func pretty() -> String {
    var out = ""
    write(to: &out, indent: 0)
    out.append("\n")
    return out
  }

  private func write(to out: inout String, indent: Int) {
    switch self {
    case .null: out.append("null")
    case .bool(let b): out.append(b ? "true" : "false")
    case .int(let n): out.append(String(n))
    case .number(let d): out.append(DecimalText.shortest(d) ?? "null")
    case .string(let s): Self.writeString(s, to: &out)
    case .array(let items):
      guard !items.isEmpty else {
        out.append("[]")
        return
      }
      out.append("[\n")
      for (i, item) in items.enumerated() {
        Self.pad(&out, indent + 1)
        item.write(to: &out, indent: indent + 1)
        out.append(i + 1 < items.count ? ",\n" : "\n")
      }
      Self.pad(&out, indent)
      out.append("]")
    case .object(let members):
      guard !members.isEmpty else {
        out.append("{}")
        return
      }
      out.append("{\n")
      for (i, (key, value)) in members.enumerated() {
        Self.pad(&out, indent + 1)
        Self.writeString(key, to: &out)
        out.append(": ")
        value.write(to: &out, indent: indent + 1)
        out.append(i + 1 < members.count ? ",\n" : "\n")
      }
      Self.pad(&out, indent)
      out.append("}")
    }
  }

  private static func pad(_ out: inout String, _ level: Int) {
    out.append(String(repeating: "  ", count: level))
  }

  /// A string with none of these is written as it is (``PlainText``).
  private static let plain = PlainText(special: "\"\\")

  static func writeString(_ s: String, to out: inout String) {
    out.append("\"")
    if plain.isPlain(s) {
      out.append(s)
      return out.append("\"")
    }
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out.append("\\\"")
      case "\\": out.append("\\\\")
      case "\n": out.append("\\n")
      case "\r": out.append("\\r")
      case "\t": out.append("\\t")
      case "\u{08}": out.append("\\b")
      case "\u{0C}": out.append("\\f")
      default:
        if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
          let hex = String(scalar.value, radix: 16, uppercase: false)
          out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out.append("\"")
  }
}
