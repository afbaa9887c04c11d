import FlyingFox
import FlyingSocks
import Foundation

/// A response body that yields some bytes, then fails: FlyingFox has then sent the headers
/// (with the full `Content-Length`) and part of the body, and closes the connection — what
/// a client sees as a connection reset mid-body.
enum ResettingBody {
  struct Reset: Error {}

  static func sequence(sending prefix: [UInt8], of declaredCount: Int) -> HTTPBodySequence {
    HTTPBodySequence(from: Bytes(prefix: prefix), count: declaredCount, suggestedBufferSize: 4_096)
  }

  struct Bytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let prefix: [UInt8]

    func makeAsyncIterator() -> Iterator { Iterator(prefix: prefix) }

    struct Iterator: AsyncBufferedIteratorProtocol {
      typealias Buffer = [UInt8]
      let prefix: [UInt8]
      var sent = false

      mutating func next() async throws -> UInt8? {
        guard let buffer = try await nextBuffer(suggested: 1) else { return nil }
        return buffer.first
      }

      mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
        guard !sent, !prefix.isEmpty else { throw Reset() }
        sent = true
        return prefix
      }
    }
  }
}
