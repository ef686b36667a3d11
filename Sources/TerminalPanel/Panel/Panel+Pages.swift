/// Pages: when not every knob fits, the layout shows the page (or the run of compact lines)
/// that holds the focused knob. Moving the focus brings its knob into view; `[` and `]` turn
/// a whole page, the focus keeping its place on it. (PgUp and PgDn turn knobs ten steps.)
extension Panel {
    /// Remembers where the window of knobs now starts, so the next frame and the next click
    /// read the same layout, and a compact list scrolls only as far as the focus needs.
    func keepFocusShown() {
        firstShown = layout.first
    }

    /// Shows the page `delta` pages on (negative: back), with the focus in the same place on
    /// it (or on the last knob of a shorter last page). At the first or last page, nothing moves.
    func turnPage(by delta: Int) {
        let layout = layout
        guard layout.perPage < knobs.count, layout.perPage > 0 else {
            message = Message(text: "every knob is on this page", isError: false)
            return
        }
        let target = min(max(focus + delta * layout.perPage, 0), knobs.count - 1)
        switch layout.style {
        case .full:
            guard target / layout.perPage != focus / layout.perPage else { return }
        case .compact:
            // The list scrolls by a screen of lines; the focus moves with it.
            firstShown = min(max(layout.first + delta * layout.perPage, 0), knobs.count - layout.perPage)
        case .tooSmall:
            return
        }
        setFocus(target)
        keepFocusShown()
    }

    /// The knob numbered `n` (from 1) on the page shown, counted from the left, row by row.
    func knobOnPage(_ n: Int) -> Int? {
        let index = layout.first + n - 1
        return n >= 1 && layout.shown.contains(index) ? index : nil
    }
}
