import Testing
import Web

/// Who may use the panel, rule by rule.
@Suite("Web access")
struct WebAccessTests {
    @Test("On loopback without a token, only this machine's names pass as Host")
    func loopbackHost() {
        let access = WebAccess(token: nil)
        for host in ["localhost:8080", "127.0.0.1:8080", "127.0.0.1", "[::1]:9", "LOCALHOST", "127.1.2.3:1"] {
            #expect(access.refusal(host: host, origin: nil, query: [], authorization: nil) == nil, "\(host)")
        }
        for host in ["evil.example:8080", "127.0.0.1.evil.example", "10.0.0.1:80", "[::2]:8", "localhost:x", ""] {
            #expect(access.refusal(host: host, origin: nil, query: [], authorization: nil) != nil, "\(host)")
        }
        #expect(access.refusal(host: nil, origin: nil, query: [], authorization: nil) != nil)
    }

    @Test("An Origin must be the page's own")
    func origin() {
        let access = WebAccess(token: nil)
        #expect(access.refusal(host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", query: [], authorization: nil) == nil)
        #expect(access.refusal(host: "127.0.0.1:8080", origin: "http://evil.example", query: [], authorization: nil) != nil)
        #expect(access.refusal(host: "127.0.0.1:8080", origin: "http://127.0.0.1:8081", query: [], authorization: nil) != nil)
        #expect(access.refusal(host: "127.0.0.1:8080", origin: "null", query: [], authorization: nil) != nil)
    }

    @Test("With a token, every request carries it, in the query or as a bearer")
    func token() {
        let access = WebAccess(token: "s3cret")
        #expect(access.refusal(host: "rig.local:8080", origin: nil, query: [("token", "s3cret")], authorization: nil) == nil)
        #expect(access.refusal(host: "rig.local:8080", origin: nil, query: [], authorization: "Bearer s3cret") == nil)
        #expect(access.refusal(host: "rig.local:8080", origin: nil, query: [], authorization: nil) != nil)
        #expect(access.refusal(host: "rig.local:8080", origin: nil, query: [("token", "s3cre")], authorization: nil) != nil)
        #expect(access.refusal(host: "rig.local:8080", origin: nil, query: [("token", "s3cretx")], authorization: nil) != nil)
        #expect(access.refusal(host: "rig.local:8080", origin: "http://evil.example", query: [("token", "s3cret")], authorization: nil) != nil)
    }

    @Test("Tokens are 32 hex digits and differ")
    func newToken() {
        let a = WebAccess.newToken(), b = WebAccess.newToken()
        #expect(a.count == 32 && a.allSatisfy(\.isHexDigit) && a != b)
    }

    @Test("Query items are percent-decoded")
    func query() {
        let items = WebAccess.queryItems("token=a%2Fb&HOST_INFO&x=1+2")
        #expect(items.map(\.0) == ["token", "HOST_INFO", "x"])
        #expect(items.map(\.1) == ["a/b", "", "1 2"])
    }
}
