/// The per-sample passes around an external kernel's run — its input made finite and held to
/// ±limit, its output looked over for absurd samples, its output's denormals made silence and
/// metered — as vectors where the lane is contiguous. Around a light plug-in these passes cost
/// as much as a third of the plug-in's own work when taken one sample and one branch at a
/// time; as vectors they cost a fraction. Each gives exactly the samples and counts the
/// one-at-a-time loop gives (the meters' sums may differ in their last bits: the squares are
/// added in another order).
enum SampleScans {
    typealias Vector = SIMD8<Float>
    typealias Bits = SIMD8<UInt32>
    typealias Words = SIMD8<Int32>

    /// Each lane's absolute value: its sign bit cleared (NaN stays NaN).
    @_noLocks @inline(__always)
    static func magnitude(_ x: Vector) -> Vector {
        unsafeBitCast(unsafeBitCast(x, to: Bits.self) & Bits(repeating: 0x7FFF_FFFF), to: Vector.self)
    }

    /// Copies `count` samples from `source` (`stride` apart) to `destination`, NaN and
    /// infinities made 0 and the rest held to ±`limit` (a denormal made 0); true when any was
    /// not finite.
    ///
    /// Contiguous samples go eight at a time, told finite by their bits (a magnitude below
    /// the infinity's) and held by comparisons and selects: written one sample at a time, the
    /// compiler kept a branch per sample and no vectors, and the pass cost a tenth of a light
    /// plug-in's own work.
    @_noLocks
    static func copyIn(from source: UnsafePointer<Float>, stride: Int, to destination: UnsafeMutablePointer<Float>,
                       count: Int, limit: Float) -> Bool {
        var notFinite: UInt32 = 0
        var i = 0
        if stride == 1 {
            let magnitudes = Words(repeating: 0x7FFF_FFFF), infinity = Words(repeating: 0x7F80_0000)
            let smallest = Words(repeating: 0x0080_0000)
            let high = Vector(repeating: limit), low = Vector(repeating: -limit), zero = Vector(repeating: 0)
            var bad = SIMDMask<Words>(repeating: false)
            while i &+ 8 <= count {
                let x = UnsafeRawPointer(source + i).loadUnaligned(as: Vector.self)
                let magnitude = unsafeBitCast(x, to: Words.self) & magnitudes
                let infinite = magnitude .>= infinity
                bad .|= infinite
                let held = x.replacing(with: high, where: x .> high).replacing(with: low, where: x .< low)
                // A denormal is 0, as the one-at-a-time loop's min and max made it under the
                // engine's denormals-are-zero (selects pass its bits on).
                let made = held.replacing(with: zero, where: infinite .| (magnitude .< smallest))
                UnsafeMutableRawPointer(destination + i).storeBytes(of: made, as: Vector.self)
                i &+= 8
            }
            notFinite = any(bad) ? 1 : 0
        }
        while i < count {
            destination[i] = guarded(source[i &* stride], limit: limit, notFinite: &notFinite)
            i &+= 1
        }
        return notFinite != 0
    }

    /// One sample of ``copyIn(from:stride:to:count:limit:)``: 0 for NaN and infinities (noted
    /// in `notFinite`) and denormals, else held to ±`limit`.
    @_noLocks @inline(__always)
    static func guarded(_ x: Float, limit: Float, notFinite: inout UInt32) -> Float {
        // Not finite: all exponent bits set (±infinity, NaN). Denormal: none set.
        let magnitude = x.bitPattern & 0x7FFF_FFFF
        let finite = magnitude < 0x7F80_0000
        notFinite |= finite ? 0 : 1
        let below = x < limit ? x : limit
        let held = below > -limit ? below : -limit
        return finite && magnitude >= 0x0080_0000 ? held : 0
    }

    /// True when any of `count` samples of `channels` buffers (`stride` apart) is not finite
    /// or beyond ±`limit`.
    @_noLocks
    static func holdsAbsurd(_ buffers: UnsafeMutablePointer<Float>, channels: Int, stride: Int, count: Int, limit: Float) -> Bool {
        let most = Vector(repeating: limit)
        for c in 0..<channels {
            let source = buffers + c &* stride
            var i = 0
            var bad = SIMDMask<SIMD8<Int32>>(repeating: false)
            while i &+ 8 <= count {
                let y = UnsafeRawPointer(source + i).loadUnaligned(as: Vector.self)
                // NaN fails every comparison: not within ±limit.
                bad .|= .!(magnitude(y) .<= most)
                i &+= 8
            }
            if any(bad) { return true }
            while i < count {
                if !(abs(source[i]) <= limit) { return true }
                i &+= 1
            }
        }
        return false
    }

    /// Copies `count` samples from `source` to `destination` (`stride` apart), a denormal
    /// made 0, as ``copyOut(from:to:stride:count:squares:peak:)`` does but unmetered, looking
    /// over them for absurd samples (not finite, or beyond ±`limit`) in the same pass, as
    /// ``holdsAbsurd(_:channels:stride:count:limit:)`` would: one pass over a kernel's output
    /// where nothing reads the meters. Returns how many denormals were made 0, or nil when
    /// a sample was absurd (what was written is then to be written again).
    @_noLocks
    static func checkedCopyOut(from source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Float>, stride: Int,
                               count: Int, limit: Float) -> Int64? {
        // A float's magnitude orders as its bits do, NaN above infinity above every finite.
        let most = Int32(bitPattern: limit.bitPattern)
        var denormals: Int64 = 0
        var i = 0
        if stride == 1 {
            let magnitudes = Words(repeating: 0x7FFF_FFFF), smallest = Words(repeating: 0x0080_0000)
            let zero = Words(repeating: 0), largest = Words(repeating: most)
            var counts = Words(repeating: 0)
            var absurd = SIMDMask<Words>(repeating: false)
            while i &+ 8 <= count {
                let bits = UnsafeRawPointer(source + i).loadUnaligned(as: Words.self)
                let magnitude = bits & magnitudes
                let denormal = (magnitude .< smallest) .& (magnitude .!= zero)
                absurd .|= magnitude .> largest
                counts &+= zero.replacing(with: 1, where: denormal)
                UnsafeMutableRawPointer(destination + i).storeBytes(of: bits.replacing(with: 0, where: denormal), as: Words.self)
                i &+= 8
            }
            if any(absurd) { return nil }
            denormals = Int64(counts.wrappedSum())
        }
        while i < count {
            let y = source[i]
            let magnitude = Int32(bitPattern: y.bitPattern & 0x7FFF_FFFF)
            if magnitude > most { return nil }
            let denormal = magnitude != 0 && magnitude < 0x0080_0000
            if denormal { denormals &+= 1 }
            destination[i &* stride] = denormal ? 0 : y
            i &+= 1
        }
        return denormals
    }

    /// Copies `count` samples from `source` to `destination` (`stride` apart), a denormal
    /// made 0 (told by its bits: with denormals-are-zero on it compares equal to 0), adding
    /// each sample's square to `squares` and keeping the largest square in `peak`. Returns
    /// how many denormals were made 0.
    @_noLocks
    static func copyOut(from source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Float>, stride: Int, count: Int,
                        squares: inout Float, peak: inout Float) -> Int64 {
        var sanitized: Int64 = 0
        var i = 0
        if stride == 1 {
            let exponent = Bits(repeating: 0x7F80_0000), mantissa = Bits(repeating: 0x007F_FFFF), zero = Bits(repeating: 0)
            var sums = Vector(repeating: 0), peaks = Vector(repeating: peak)
            var denormals = SIMD8<Int32>(repeating: 0)
            while i &+ 8 <= count {
                var y = UnsafeRawPointer(source + i).loadUnaligned(as: Vector.self)
                let bits = unsafeBitCast(y, to: Bits.self)
                let denormal = (bits & exponent .== zero) .& (bits & mantissa .!= zero)
                y.replace(with: 0, where: denormal)
                denormals &+= SIMD8<Int32>(repeating: 0).replacing(with: 1, where: denormal)
                UnsafeMutableRawPointer(destination + i).storeBytes(of: y, as: Vector.self)
                let square = y * y
                sums += square
                peaks.replace(with: square, where: square .> peaks)
                i &+= 8
            }
            sanitized = Int64(denormals.wrappedSum())
            squares += sums.sum()
            peak = peaks.max()
        }
        while i < count {
            var y = source[i]
            let bits = y.bitPattern
            if bits & 0x7F80_0000 == 0 && bits & 0x007F_FFFF != 0 {
                y = 0
                sanitized &+= 1
            }
            destination[i &* stride] = y
            squares += y * y
            peak = max(peak, y * y)
            i &+= 1
        }
        return sanitized
    }
}
