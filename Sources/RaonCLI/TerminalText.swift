import RaonCore

/// Text made safe for one terminal line (see ``SafeText/terminalLine(_:)``).
enum TerminalText {
  static func oneLine(_ text: String) -> String { SafeText.terminalLine(text) }
}
