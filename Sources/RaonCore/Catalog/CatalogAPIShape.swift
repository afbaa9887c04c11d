/// What a catalog's Open API looks like: where it is, how a page is asked for, how large a
/// page may be, how its answers and errors are shaped, and where its key comes from. The
/// client in RaonIngest speaks each style; this is the data it reads.
public struct CatalogAPIShape: Sendable, Hashable {
  /// How requests and answers are shaped.
  public enum Style: Sendable, Hashable {
    /// The key inside the path, as Seoul Open Data Plaza has it:
    /// `GET {base}/{KEY}/json/{service}/{START}/{END}/`; rows in
    /// `{service}.row`, the total in `list_total_count`, results in `RESULT.CODE`
    /// (`INFO-000` ok, `INFO-100` bad key, `INFO-200` no data, `ERROR-3xx` refused,
    /// `ERROR-5xx/6xx` server side), also flat or as XML.
    case keyInPath(service: String)
    /// The key as a query parameter, as the public data portal (data.go.kr) has it:
    /// `GET {base}/{operation}?serviceKey=KEY&pageNo=N&numOfRows=M&type=json`; rows in
    /// `response.body.items` (an array, or `{"item": [...]}`), the total in
    /// `response.body.totalCount`, the result in `response.header.resultCode` (`00` ok);
    /// gateway errors as XML `<OpenAPI_ServiceResponse><cmmMsgHeader>…`.
    case keyInQuery(operation: String)
  }

  public let style: Style
  /// The service's own address.
  public let defaultBase: String
  /// The environment variable holding the key.
  public let keyVariable: String
  /// Where a key is obtained, for messages.
  public let keyPortal: String
  /// The most rows one request may ask for.
  public let maxPageSize: Int

  public init(style: Style, defaultBase: String, keyVariable: String, keyPortal: String, maxPageSize: Int) {
    self.style = style
    self.defaultBase = defaultBase
    self.keyVariable = keyVariable
    self.keyPortal = keyPortal
    self.maxPageSize = maxPageSize
  }
}
