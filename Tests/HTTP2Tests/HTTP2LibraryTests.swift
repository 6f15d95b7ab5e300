import Testing
@testable import HTTP2

@Suite("nghttp2 binding")
struct HTTP2LibraryTests {
    @Test("the loaded library matches the headers it was compiled against")
    func versions() {
        #expect(HTTP2Library.version == HTTP2Library.headerVersion)
        #expect(HTTP2Library.version.hasPrefix("1."))
    }

    @Test("the shimmed window-size macro has RFC 9113's value")
    func initialWindow() {
        #expect(HTTP2Library.initialWindowSize == 65_535)
    }
}
