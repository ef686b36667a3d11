/// The unit a terminal reports pointer positions in.
///
/// Character cells are about twice as tall as they are wide, so a cell position is not a shape
/// the eye sees: a knob corrects for this (``KnobBehavior/cellAspect``) wherever a direction or a
/// distance matters (circular drag, sideways fine control, double-click slop).
public enum PointerUnit: Sendable, Hashable {
    /// x counts columns and y counts rows (SGR 1006 mouse reports).
    case cells
    /// x and y count pixels (SGR-pixel mouse reports, where the terminal offers them).
    case pixels
}
