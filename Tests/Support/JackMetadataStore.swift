#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// JACK's metadata database (Berkeley DB, `/dev/shm/jack_db-UID`): one per user, shared by every
/// server and client of the user, whatever the server's name. jackd writes it at every client's
/// and port's end, libjack at `jack_set_property` (Detent names its ports there). A process
/// killed while it holds the database's lock — the tests kill servers and stuck programs —
/// leaves the lock held for ever, and every later client close on any server then waits for
/// ever in jackd. So before a server starts, a database no process has open is removed: the
/// server makes a new one, and a lock left by the dead goes with the old.
public enum JackMetadataStore {
    /// The database's folder for this user.
    public static var folder: String { "/dev/shm/jack_db-\(getuid())" }

    /// Removes the database (at `folder`) when no process has it open (none maps its region
    /// files); true when it was removed.
    @discardableResult
    public static func clearIfUnused(folder: String = folder) -> Bool {
        guard FileManager.default.fileExists(atPath: folder), !inUse(folder) else { return false }
        return (try? FileManager.default.removeItem(atPath: folder)) != nil
    }

    /// Whether a process maps one of `folder`'s files (every process with the database open does).
    static func inUse(_ folder: String) -> Bool {
        let mark = Array((folder + "/").utf8)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return true }
        for pid in entries where pid.allSatisfy(\.isNumber) {
            // A process that ends meanwhile has nothing open.
            // Read to its end: /proc's files say they are empty.
            guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/maps") else { continue }
            let maps = file.readDataToEndOfFile()
            try? file.close()
            if maps.withUnsafeBytes({ bytes in bytes.firstRange(of: mark) != nil }) { return true }
        }
        return false
    }
}
