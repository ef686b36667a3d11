// What the server is built on — the host it serves, its settings and access rules — comes
// with it.
@_exported import WebBridge
