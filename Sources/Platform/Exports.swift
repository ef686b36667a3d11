/// Platform's calls speak swift-system's types (`Errno`, `FileDescriptor`, `FilePath`), so
/// every module that uses Platform sees them without depending on swift-system itself: one
/// vocabulary for the operating system across the package.
@_exported import SystemPackage
