import CPluginKernel
import Dispatch
import Glibc
import Testing

/// Plug-ins plan FFTs in threads of their own (a convolver's worker, `run`), where no lock of
/// Detent's reaches, and FFTW's planner corrupts its own memory when two threads plan at once.
/// The first plug-in lifecycle step makes the planner thread-safe for the process: after it,
/// threads planning and freeing at once must not crash (without it this process aborts with
/// "double free or corruption" or a floating-point exception, in every run tried).
@Suite struct FFTWPlannerTests {
    typealias Plan = @convention(c) (Int32, UnsafeMutablePointer<Float>?, UnsafeMutableRawPointer?, UInt32) -> OpaquePointer?
    typealias Destroy = @convention(c) (OpaquePointer?) -> Void

    @Test("after the first lifecycle step, threads plan FFTs at once without corrupting FFTW")
    func plannersAreThreadSafe() throws {
        // Local, as Detent loads it: a plug-in that uses FFTW without linking it stays unloadable.
        let library = try #require(dlopen("libfftw3f.so.3", RTLD_NOW | RTLD_LOCAL), "FFTW (libfftw3-single3, which the plug-ins bring)")
        let plan = unsafeBitCast(try #require(dlsym(library, "fftwf_plan_dft_r2c_1d")), to: Plan.self)
        let destroy = unsafeBitCast(try #require(dlsym(library, "fftwf_destroy_plan")), to: Destroy.self)
        detent_plugin_lifecycle_lock()
        detent_plugin_lifecycle_unlock()
        DispatchQueue.concurrentPerform(iterations: 3) { t in
            for i in 0..<300 {
                let n = 64 + (i % 17) * 32 + t
                let input = UnsafeMutablePointer<Float>.allocate(capacity: 2 * n)
                let output = UnsafeMutableRawPointer.allocate(byteCount: 8 * (n + 2), alignment: 16)
                // FFTW_MEASURE (0): the planner times several algorithms, keeping what it learns.
                destroy(plan(Int32(n), input, output, 0))
                input.deallocate()
                output.deallocate()
            }
        }
    }
}
