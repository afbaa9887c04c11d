import CLibXML2
import Foundation
import RaonErrors

/// What an ``XMLPartReader`` reports: elements by local name, attributes by qualified name
/// (`r:id`), text (CDATA included, entities decoded).
protocol XMLPartEvents: AnyObject {
  func start(_ name: String, attributes: [String: String]) throws
  func end(_ name: String) throws
  func text(_ bytes: UnsafeBufferPointer<UInt8>) throws
}

extension XMLPartEvents {
  func end(_ name: String) throws {}
  func text(_ bytes: UnsafeBufferPointer<UInt8>) throws {}
}

/// Why an XML part could not be read.
enum XMLPartFailure: RaonError {
  /// Not well-formed XML; libxml2's line and column.
  case malformed(line: Int, column: Int)
  /// The part declares a DTD (`<!DOCTYPE`): OOXML parts never do, and a DTD is how
  /// entity attacks (XXE, "billion laughs") start, so none is read.
  case doctype
}

/// Reads one XML part as it arrives, chunk by chunk, through libxml2's push parser.
///
/// Why not Foundation's `XMLParser(data:)`: it hands libxml2 the whole part in one chunk,
/// and libxml2 (2.9, without `XML_PARSE_HUGE`) stops with "Huge input lookup" once that
/// chunk is over 10,000,000 bytes — an openpyxl sheet of ~12,000 catalog rows. Fed in
/// small chunks the parser keeps only what it has not yet read, whatever the part's size.
///
/// No DTD is read (``XMLPartFailure/doctype``), no entity but XML's five and character
/// references is expanded, nothing is fetched from the network.
final class XMLPartReader {
  private let state: State
  private let context: xmlParserCtxtPtr

  /// What the C callbacks reach through libxml2's user-data pointer.
  private final class State {
    let events: XMLPartEvents
    var context: xmlParserCtxtPtr?
    /// The first error a callback met; the parser is stopped when it is set.
    var failure: Error?

    init(_ events: XMLPartEvents) { self.events = events }

    func fail(_ error: Error) {
      guard failure == nil else { return }
      failure = error
      if let context { xmlStopParser(context) }
    }
  }

  init(_ events: XMLPartEvents) {
    xmlInitParser()
    state = State(events)
    var sax = xmlSAXHandler()
    sax.initialized = XML_SAX2_MAGIC
    sax.startElementNs = { user, name, _, _, _, _, count, _, attributes in
      guard let user, let name else { return }
      let state = Unmanaged<State>.fromOpaque(user).takeUnretainedValue()
      guard state.failure == nil else { return }
      var dictionary: [String: String] = [:]
      if let attributes {
        for i in 0..<Int(count) {
          let base = attributes + i * 5  // localname, prefix, URI, value, value end
          guard let local = base[0], let start = base[3], let end = base[4] else { continue }
          var key = String(cString: local)
          if let prefix = base[1] { key = String(cString: prefix) + ":" + key }
          var value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
          // Without entity substitution libxml2 hands `&` back as `&#38;` (a raw `&`
          // cannot stand in an attribute, so this is always one).
          if value.contains("&#38;") { value = value.replacingOccurrences(of: "&#38;", with: "&") }
          dictionary[key] = value
        }
      }
      do { try state.events.start(String(cString: name), attributes: dictionary) } catch { state.fail(error) }
    }
    sax.endElementNs = { user, name, _, _ in
      guard let user, let name else { return }
      let state = Unmanaged<State>.fromOpaque(user).takeUnretainedValue()
      guard state.failure == nil else { return }
      do { try state.events.end(String(cString: name)) } catch { state.fail(error) }
    }
    let text: charactersSAXFunc = { user, bytes, count in
      guard let user, let bytes, count > 0 else { return }
      let state = Unmanaged<State>.fromOpaque(user).takeUnretainedValue()
      guard state.failure == nil else { return }
      do { try state.events.text(UnsafeBufferPointer(start: bytes, count: Int(count))) } catch { state.fail(error) }
    }
    sax.characters = text
    sax.cdataBlock = text
    sax.internalSubset = { user, _, _, _ in
      guard let user else { return }
      Unmanaged<State>.fromOpaque(user).takeUnretainedValue().fail(XMLPartFailure.doctype)
    }
    // Errors are read from the context afterwards; nothing is printed.
    sax.serror = { _, _ in }
    let user = Unmanaged.passUnretained(state).toOpaque()
    // A context is only not made when memory is exhausted.
    guard let made = xmlCreatePushParserCtxt(&sax, user, nil, 0, nil) else {
      fatalError("libxml2 could not allocate a parser context")
    }
    context = made
    state.context = made
    _ = xmlCtxtUseOptions(made, Int32(XML_PARSE_NONET.rawValue))
  }

  deinit {
    xmlFreeParserCtxt(context)
  }

  /// Parses the next chunk of the part.
  ///
  /// - Throws: ``XMLPartFailure``, or what an event handler threw.
  func feed(_ chunk: Data) throws {
    let status = chunk.withUnsafeBytes { raw -> Int32 in
      guard let base = raw.baseAddress, raw.count > 0 else { return 0 }
      return xmlParseChunk(context, base.assumingMemoryBound(to: CChar.self), Int32(raw.count), 0)
    }
    try check(status)
  }

  /// Ends the part: whatever is still open is an error.
  func finish() throws {
    try check(xmlParseChunk(context, nil, 0, 1))
  }

  private func check(_ status: Int32) throws {
    if let failure = state.failure { throw failure }
    if status != 0 || context.pointee.wellFormed == 0 { throw malformed() }
  }

  private func malformed() -> XMLPartFailure {
    guard let error = xmlCtxtGetLastError(context) else { return .malformed(line: 0, column: 0) }
    return .malformed(line: Int(error.pointee.line), column: Int(error.pointee.int2))
  }
}

extension XMLPartFailure {
  var exitStatus: ExitStatus { .failure }
}
