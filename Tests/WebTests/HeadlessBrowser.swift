import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// Debian's Chromium, headless, driven over the Chrome DevTools protocol through the tests'
/// own WebSocket client: one page, its script evaluated, mouse events dispatched as a person's
/// would be, screenshots taken at a chosen width.
final class HeadlessBrowser {
    static let executable = "/usr/bin/chromium"
    static var isInstalled: Bool { access(executable, X_OK) == 0 }

    private let folder = TemporaryFolder()
    private let child: ChildProcess
    private let socket: PanelSocket
    private var nextID = 0

    struct Failure: Error, CustomStringConvertible { let description: String }

    init() throws {
        let profile = folder.file("profile")
        child = try ChildProcess(Self.executable, [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--remote-debugging-port=0", "--user-data-dir=\(profile)", "--window-size=1024,768", "about:blank",
        ], stdin: .null, stdout: .null, stderr: .open(folder.write("stderr", text: "")))
        let group = child.pid
        Self.running.withLock { _ = $0.insert(group) }
        _ = Self.reaper
        // Chromium writes the port it chose to DevToolsActivePort in its profile.
        let portFile = profile + "/DevToolsActivePort"
        try waitUntil("Chromium listens for DevTools", timeout: 30) { FileManager.default.fileExists(atPath: portFile) }
        var port: Int?
        try waitUntil("DevToolsActivePort names a port", timeout: 10) {
            port = (try? String(contentsOfFile: portFile, encoding: .utf8))?.split(separator: "\n").first.flatMap { Int($0) }
            return port != nil
        }
        let targets = try JSONSerialization.jsonObject(with: Data(try httpGet(port: port!, "/json/list").body.utf8)) as? [[String: Any]]
        guard let page = targets?.first(where: { $0["type"] as? String == "page" }),
              let url = page["webSocketDebuggerUrl"] as? String, let path = url.range(of: "/devtools/").map({ String(url[$0.lowerBound...]) })
        else { throw Failure(description: "no page among Chromium's targets: \(String(describing: targets))") }
        socket = try PanelSocket(port: port!, path: path)
    }

    /// Chromium and the helper processes it started (its own process group).
    deinit {
        Glibc.kill(-child.pid, SIGKILL)
        child.wait()
        let group = child.pid
        Self.running.withLock { _ = $0.remove(group) }
    }

    /// The process groups of the Chromiums running, and their end when the test process
    /// exits: a browser test that failed by throwing has been seen to leave its Chromium
    /// running, its deinit never run, so the group kill does not rest on deinit alone.
    private static let running = Mutex<Set<pid_t>>([])
    private static let reaper: Void = {
        atexit { HeadlessBrowser.running.withLock { groups in for group in groups { Glibc.kill(-group, SIGKILL) } } }
    }()

    /// Calls a DevTools method and returns its result.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        nextID += 1
        let id = nextID
        let request = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": params])
        socket.send(String(decoding: request, as: UTF8.self))
        while let text = socket.receive() {
            guard let message = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  message["id"] as? Int == id else { continue }   // events, and answers to nothing asked now
            if let error = message["error"] { throw Failure(description: "\(method): \(error)") }
            return message["result"] as? [String: Any] ?? [:]
        }
        throw Failure(description: "\(method): no answer")
    }

    /// The value of a JavaScript expression on the page.
    func evaluate(_ expression: String) throws -> Any? {
        let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let exception = result["exceptionDetails"] { throw Failure(description: "\(expression): \(exception)") }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Waits until a JavaScript expression is true on the page.
    func waitFor(_ expression: String, timeout: Double = 10) throws {
        try waitUntil("the page: \(expression)", timeout: timeout) { (try? evaluate(expression)) as? Bool == true }
    }

    func open(_ url: String) throws {
        try call("Page.enable")
        try call("Page.navigate", ["url": url])
    }

    /// The centre of the element `selector` selects, in CSS pixels.
    func centre(_ selector: String) throws -> (x: Double, y: Double) {
        let rect = try evaluate("(() => { const r = document.querySelector('\(selector)').getBoundingClientRect(); "
                                + "return [r.x + r.width / 2, r.y + r.height / 2]; })()") as? [Double]
        guard let rect, rect.count == 2 else { throw Failure(description: "no element \(selector)") }
        return (rect[0], rect[1])
    }

    /// Presses the left button on `selector`, moves `dy` pixels up in steps, and lets go;
    /// `modifiers` as DevTools counts them (8: Shift).
    func drag(_ selector: String, up dy: Double, modifiers: Int = 0) throws {
        let (x, y) = try centre(selector)
        try mouse("mousePressed", x, y, modifiers: modifiers)
        for step in 1...10 { try mouse("mouseMoved", x, y - dy * Double(step) / 10, modifiers: modifiers) }
        try mouse("mouseReleased", x, y - dy, modifiers: modifiers)
    }

    /// Two clicks in quick succession on `selector`, without moving.
    func doubleClick(_ selector: String) throws {
        let (x, y) = try centre(selector)
        for count in 1...2 {
            try mouse("mousePressed", x, y, clickCount: count)
            try mouse("mouseReleased", x, y, clickCount: count)
        }
    }

    private func mouse(_ type: String, _ x: Double, _ y: Double, modifiers: Int = 0, clickCount: Int = 1) throws {
        try call("Input.dispatchMouseEvent", ["type": type, "x": x, "y": y, "modifiers": modifiers, "button": "left",
                                              "buttons": type == "mouseReleased" ? 0 : 1, "clickCount": clickCount])
    }

    /// A PNG of what a window of `width` × `height` CSS pixels shows (a phone's when `mobile`),
    /// from the top of the page.
    func screenshot(width: Int, height: Int, mobile: Bool) throws -> Data {
        try call("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile])
        _ = try evaluate("window.scrollTo(0, 0)")
        let result = try call("Page.captureScreenshot", ["format": "png"])
        guard let data = (result["data"] as? String).flatMap({ Data(base64Encoded: $0) }) else {
            throw Failure(description: "no screenshot")
        }
        return data
    }

    /// A PNG of the page at `width` CSS pixels, as tall as its content.
    func screenshot(width: Int, mobile: Bool) throws -> Data {
        try call("Emulation.setDeviceMetricsOverride", ["width": width, "height": 700, "deviceScaleFactor": 1, "mobile": mobile])
        let height = try evaluate("document.documentElement.scrollHeight") as? Int ?? 700
        try call("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile])
        let result = try call("Page.captureScreenshot", ["format": "png"])
        guard let data = (result["data"] as? String).flatMap({ Data(base64Encoded: $0) }) else {
            throw Failure(description: "no screenshot")
        }
        return data
    }
}
