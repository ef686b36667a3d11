extension Double {
    /// Within a relative `tolerance` of `other` (for results of transcendental functions and tapers).
    public func isClose(to other: Double, tolerance: Double = 1e-12) -> Bool {
        abs(self - other) <= tolerance * max(1, abs(other))
    }
}
