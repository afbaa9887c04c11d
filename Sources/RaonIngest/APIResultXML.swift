import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Reads the Open API's XML result (`<RESULT><CODE>INFO-100</CODE><MESSAGE><![CDATA[…]]>
/// </MESSAGE></RESULT>`), which the service sends for errors even on `/json/` requests.
enum APIResultXML {
  /// The code and message, or `nil` when `body` is not XML with a `CODE` element (an HTML
  /// error page, say).
  static func read(_ body: [UInt8]) -> (code: String, message: String)? {
    let handler = Handler()
    let parser = XMLParser(data: Data(body))
    parser.shouldResolveExternalEntities = false
    parser.delegate = handler
    _ = parser.parse()  // a result read before a later error still counts
    guard let code = handler.code?.trimmingCharacters(in: .whitespacesAndNewlines), !code.isEmpty
    else { return nil }
    let message = (handler.message ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    return (code, message)
  }

  private final class Handler: NSObject, XMLParserDelegate {
    var code: String?
    var message: String?
    private var current: String?
    private var text = ""

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      let upper = name.uppercased()
      if (upper == "CODE" && code == nil) || (upper == "MESSAGE" && message == nil) {
        current = upper
        text = ""
      }
    }

    func parser(
      _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
    ) {
      guard let field = current, name.uppercased() == field else { return }
      if field == "CODE" { code = text } else { message = text }
      current = nil
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if current != nil { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
      if current != nil { text += String(decoding: CDATABlock, as: UTF8.self) }
    }
  }
}
