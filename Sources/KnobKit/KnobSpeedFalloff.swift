/// How a vertical drag slows as the pointer strays sideways beyond the full-speed band.
///
/// Linear (bradhowes' Knob) is gentle but spends most of its reach near full speed, which is
/// enough when the slowest speed is a tenth. With cell reports a row is a big step, so a panel
/// may set a far lower minimum; then the speed should fall by the same ratio for every column
/// moved, so each sideways column gives a usable, distinct speed all the way down.
public enum KnobSpeedFalloff: Sendable, Hashable {
    /// From 1 at the band's edge down to the minimum, linearly over the fine reach.
    case linear
    /// From 1 at the band's edge down to the minimum, by a constant ratio per unit of distance
    /// over the fine reach: `minimum ^ (beyond / reach)`.
    case geometric
}
