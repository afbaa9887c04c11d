import Foundation
import RaonCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A page of the public data portal's Open API (data.go.kr), in JSON or XML:
///
/// ```text
/// {"response": {"header": {"resultCode": "00", "resultMsg": "NORMAL SERVICE."},
///               "body": {"items": [{…}, …], "totalCount": "7617", "numOfRows": "1000", "pageNo": "1"}}}
/// <response><header><resultCode>00</resultCode>…</header><body><items><item>…</item></items>
///   <totalCount>7617</totalCount></body></response>
/// ```
///
/// `items` may also be `{"item": [...]}` (or one object), or empty (`""`, `null`). The
/// portal's gateway answers key and quota errors in XML whatever the `type` asked:
/// `<OpenAPI_ServiceResponse><cmmMsgHeader><errMsg>SERVICE ERROR</errMsg>
/// <returnAuthMsg>SERVICE_KEY_IS_NOT_REGISTERED_ERROR</returnAuthMsg>
/// <returnReasonCode>30</returnReasonCode></cmmMsgHeader></OpenAPI_ServiceResponse>`: its
/// reason code is the result code and its auth message the message.
enum PortalAPIPage {
  /// `resultCode` of a page that holds its rows.
  static let success = "00"

  /// The page in a parsed JSON document, or `nil` when it is not one (no `response`, and no
  /// top-level `resultCode`).
  static func read(root: JSONNode, source: String, firstRow: Int) throws -> OpenAPIPage? {
    let response: JSONNode
    if let wrapped = member(root, "response") {
      response = wrapped
    } else if member(root, "resultCode") != nil || member(root, "header") != nil {
      response = root
    } else {
      return nil
    }
    let header = member(response, "header") ?? response
    let code = member(header, "resultCode")?.fieldText
    let message = member(header, "resultMsg")?.fieldText
    let body = member(response, "body")
    let total = body.flatMap { member($0, "totalCount")?.fieldText }.flatMap {
      Int($0.trimmingCharacters(in: .whitespaces))
    }
    var rows: [JSONNode] = []
    switch body.flatMap({ member($0, "items") }) {
    case .array(let items)?:
      rows = items
    case .object(let members)?:
      switch members.first(where: { $0.key.lowercased() == "item" })?.value {
      case .array(let items)?: rows = items
      case .object(let one)?: rows = [.object(one)]
      default: rows = []
      }
    default:
      rows = []
    }
    let records = try JSONCatalogReader.makeRecords(rows, source: source, firstRow: firstRow)
    return OpenAPIPage(totalCount: total, resultCode: code, resultMessage: message, records: records)
  }

  /// The page in an XML body (a `<response>` page, or the gateway's
  /// `<OpenAPI_ServiceResponse>` error), or `nil` when the XML is neither.
  static func readXML(_ body: [UInt8], source: String, firstRow: Int) -> OpenAPIPage? {
    let handler = XMLPage()
    let parser = XMLParser(data: Data(body))
    parser.shouldResolveExternalEntities = false
    parser.delegate = handler
    _ = parser.parse()  // what was read before a later error still counts
    guard handler.sawPage else { return nil }
    var namesByKeys: [[String]: FieldNames] = [:]
    let records = handler.items.enumerated().map { index, item -> RawRecord in
      let keys = item.map(\.key)
      let names = namesByKeys[keys] ?? FieldNames(keys)
      namesByKeys[keys] = names
      return RawRecord(
        names: names, values: item.map { Optional($0.value) },
        location: SourceLocation(source: source, line: firstRow + index))
    }
    let code = handler.value("resultcode") ?? handler.value("returnreasoncode")
    let message = handler.value("resultmsg") ?? handler.value("returnauthmsg") ?? handler.value("errmsg")
    return OpenAPIPage(
      totalCount: handler.value("totalcount").flatMap { Int($0) }, resultCode: code,
      resultMessage: message, records: records)
  }

  /// A member by key, falling back to a case-insensitive match.
  private static func member(_ node: JSONNode, _ key: String) -> JSONNode? {
    if let exact = node[key] { return exact }
    guard case .object(let members) = node else { return nil }
    return members.first { $0.key.lowercased() == key.lowercased() }?.value
  }

  /// Collects an XML page: the header's and body's single values, and each `<item>`'s
  /// child elements in order.
  private final class XMLPage: NSObject, XMLParserDelegate {
    private(set) var sawPage = false
    private(set) var items: [[(key: String, value: String)]] = []
    private var values: [String: String] = [:]
    private var path: [String] = []
    private var text = ""
    private var item: [(key: String, value: String)]?

    func value(_ name: String) -> String? {
      values[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      if path.isEmpty, ["response", "openapi_serviceresponse"].contains(name.lowercased()) { sawPage = true }
      if name.lowercased() == "item", path.last?.lowercased() == "items" { item = [] }
      path.append(name)
      text = ""
    }

    func parser(
      _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
    ) {
      path.removeLast()
      if name.lowercased() == "item", item != nil, path.last?.lowercased() == "items" {
        items.append(item ?? [])
        item = nil
      } else if item != nil, path.last?.lowercased() == "item" {
        item?.append((name, text))
      } else if item == nil, values[name.lowercased()] == nil {
        values[name.lowercased()] = text
      }
      text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
      text += String(decoding: CDATABlock, as: UTF8.self)
    }
  }
}
