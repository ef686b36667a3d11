import Foundation
import Testing
import TestSupport
@testable import Web

/// The rig announced over mDNS, browsed by Avahi's own `avahi-browse`, with a daemon of the
/// test's own: in a network namespace (a veth pair, the only interfaces Avahi uses there) and
/// a mount namespace (its own /run/avahi-daemon), on a private D-Bus. Making namespaces needs
/// root: outside CI the test is skipped without it.
@Suite struct AnnounceTests {
    @Test func aServiceIsAnnouncedWhereItListens() throws {
        #expect(ServiceAnnouncer.scope(of: "127.0.0.1") == nil, "loopback is not announced")
        #expect(ServiceAnnouncer.scope(of: "127.4.5.6") == nil)
        #expect(ServiceAnnouncer.scope(of: "::1") == nil)
        #expect(ServiceAnnouncer.scope(of: "0.0.0.0") == .everywhere(protocol: 0))
        #expect(ServiceAnnouncer.scope(of: "::") == .everywhere(protocol: -1))
        // An address of this machine's: the interface holding it.
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return }
        defer { freeifaddrs(list) }
        var entry = list
        while let this = entry {
            defer { entry = this.pointee.ifa_next }
            guard let address = this.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  this.pointee.ifa_flags & UInt32(IFF_LOOPBACK) == 0 else { continue }
            var text = [CChar](repeating: 0, count: 64)
            var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            inet_ntop(AF_INET, &v4, &text, 64)
            let index = Int32(if_nametoindex(this.pointee.ifa_name))
            #expect(ServiceAnnouncer.scope(of: String(cString: text)) == .interface(index, protocol: 0))
        }
    }

    /// What the namespaces' script does: a private bus; a first Detent before any Avahi daemon
    /// runs (it says so and waits); the daemon; a browse that finds the first; a second Detent
    /// under the same name (renamed as Avahi proposes); a browse that finds it; both quit.
    static let script = #"""
        set -eu
        dir=$1 detent=$2
        ip link set lo up
        ip link add mdns0 type veth peer name mdns1
        ip link set mdns1 up
        ip link set mdns0 multicast on up
        ip addr add 10.77.0.1/24 dev mdns0
        mkdir -p /run/avahi-daemon
        mount -t tmpfs tmpfs /run/avahi-daemon
        # Every process stays in the script's process group (nothing daemonizes), ended with it.
        trap 'kill $(jobs -p) 2> /dev/null; wait' EXIT
        export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$dir/bus
        dbus-daemon --config-file="$dir/bus.conf" --nofork --print-address > "$dir/bus.address" &
        timeout 10 sh -c "until [ -s '$dir/bus.address' ]; do sleep 0.05; done"
        # Detent NAME: started with its stdin a fifo held open on descriptor FD; waits for its URL.
        start() {
            mkfifo "$dir/$1.in"
            "$detent" live --headless --http 0 --http-bind 0.0.0.0 --osc 0 --osc-bind 0.0.0.0 \
                < "$dir/$1.in" 2> "$dir/$1.err" &
            echo $! > "$dir/$1.pid"
            eval "exec $2> \"$dir/$1.in\""
            timeout 20 sh -c "until grep -q 'web panel at' '$dir/$1.err'; do sleep 0.05; done"
        }
        # The first line a browse for TYPE resolves that matches PATTERN.
        browse() {
            exec 5< <(exec timeout 20 avahi-browse --resolve --parsable "$1")
            local browser=$!
            grep -m1 -- "$2" <&5 || echo "none: $1 $2"
            kill $browser 2> /dev/null || true
            exec 5<&-
        }
        start a 3
        avahi-daemon -f "$dir/avahi.conf" --no-drop-root --no-chroot --no-rlimits 2> "$dir/avahi.log" &
        timeout 20 sh -c "until grep -q 'Server startup complete' '$dir/avahi.log'; do sleep 0.05; done"
        browse _oscjson._tcp '^=.*;Detent;_oscjson'
        browse _osc._udp '^=.*;Detent;_osc'
        start b 4
        browse _oscjson._tcp '^=.*;Detent\\032.*;_oscjson'
        exec 3>&- 4>&-
        for name in a b; do
            status=0
            wait "$(cat "$dir/$name.pid")" || status=$?
            echo "$name exited $status"
        done
        """#

    static let bus = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=BUS</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*"/>
            <allow receive_sender="*"/>
          </policy>
        </busconfig>
        """

    static let avahi = """
        [server]
        use-ipv4=yes
        use-ipv6=no
        allow-interfaces=mdns0
        [publish]
        publish-hinfo=no
        publish-workstation=no
        """

    /// Whether this machine lets the test make a network namespace with a veth pair: root
    /// (as CI runs) and a kernel with veth. Where it does not, the test is skipped with the
    /// reason, in CI too: the machine, not a tool setup installs, is what is missing.
    static let namespaces: (allowed: Bool, why: String) = {
        guard getuid() == 0 else { return (false, "making network and mount namespaces needs root") }
        guard let probe = try? ChildProcess.run("/usr/bin/unshare", ["--net", "/usr/sbin/ip", "link", "add", "probe0", "type", "veth",
                                                                    "peer", "name", "probe1"]) else {
            return (false, "unshare cannot be run")
        }
        guard probe.status.exited == 0 else {
            return (false, "this machine allows no network namespace with a veth pair: \(probe.stderrText.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return (true, "")
    }()

    @Test(.enabled(if: Self.namespaces.allowed, Comment(rawValue: Self.namespaces.why)),
          .timeLimit(.minutes(2)))
    func aBrowseFindsTheRigWithItsPorts() throws {
        let folder = TemporaryFolder()
        _ = folder.write("bus.conf", text: Self.bus.replacingOccurrences(of: "BUS", with: folder.file("bus")))
        _ = folder.write("avahi.conf", text: Self.avahi)
        let script = folder.write("mdns.sh", text: Self.script)
        // The JACK server outside the namespaces: its clients reach it by a path.
        let server = try JackServer()
        let run = try ChildProcess.run("/usr/bin/timeout", ["90", "unshare", "--net", "--mount", "bash", script, folder.path, BuiltProducts.detent],
                                       environment: ProcessInfo.processInfo.environment.merging(["JACK_DEFAULT_SERVER": server.name]) { $1 })
        let lines = run.stdoutText.split(separator: "\n").map(String.init)
        #expect(run.status.exited == 0, "\(run.stderrText)")
        let a = try String(contentsOfFile: folder.file("a.err"), encoding: .utf8)
        let b = try String(contentsOfFile: folder.file("b.err"), encoding: .utf8)

        // "=;IFACE;IPv4;NAME;TYPE;DOMAIN;HOST;ADDRESS;PORT;TXT", the name's other characters
        // than letters and digits written \DDD (decimal).
        func unescaped(_ name: String) -> String {
            var bytes: [UInt8] = [], rest = Array(name.utf8)[...]
            while let first = rest.first {
                if first == UInt8(ascii: "\\"), rest.count >= 4, let code = UInt8(String(decoding: rest.dropFirst().prefix(3), as: UTF8.self)) {
                    bytes.append(code)
                    rest = rest.dropFirst(4)
                } else {
                    bytes.append(first)
                    rest = rest.dropFirst()
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        func found(_ name: String, _ type: String) -> (address: String, port: Int)? {
            for line in lines {
                let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
                if fields.count >= 9, fields[0] == "=", unescaped(fields[3]) == name, fields[4] == type {
                    return (fields[7], Int(fields[8]) ?? -1)
                }
            }
            return nil
        }
        // The first Detent started before the daemon: it said so once, and was found after.
        #expect(a.components(separatedBy: "no avahi-daemon is running").count == 2, "\(a)")
        let web = try #require(found("Detent", "_oscjson._tcp"), "\(lines)")
        #expect(web.address == "10.77.0.1")
        #expect(a.contains(":\(web.port)/?token="), "\(a)")
        let osc = try #require(found("Detent", "_osc._udp"), "\(lines)")
        #expect(a.contains("OSC on UDP 0.0.0.0:\(osc.port)\n"), "\(a)")
        // The second, under the same name, took Avahi's next one and said so.
        let second = try #require(found("Detent #2", "_oscjson._tcp"), "\(lines)")
        #expect(b.contains(":\(second.port)/?token="), "\(b)")
        #expect(b.contains("mDNS: the name 'Detent' is taken on the network; announced as 'Detent #2'"), "\(b)")
        #expect(lines.suffix(2) == ["a exited 0", "b exited 0"])
    }
}
