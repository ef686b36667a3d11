import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// A request's context with the two ends of its connection: the page's socket decides whether
/// the page may change the rig (``PanelTrust``).
struct PanelRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let remoteAddress: NIOCore.SocketAddress?
    /// The server's own port on this connection.
    let localPort: Int?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
        localPort = source.channel.localAddress?.port
    }
}
