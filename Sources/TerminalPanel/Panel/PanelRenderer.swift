import Parameters
import AudioEngine
import KnobKit
import Presets

/// Draws a ``Panel`` as it looks at a given time, into a fresh ``ScreenBuffer``: a pure
/// function of the panel's state and the time, so tests compare whole screens.
public enum PanelRenderer {
    /// The level axis of the response plot: room for the highest resonance peak above 0 dB
    /// and four grid lines of roll-off below.
    public static let plotDecibels: ClosedRange<Double> = -48...24
    /// The sample rate the response is drawn for when no engine runs.
    public static let displaySampleRate = 48_000.0

    /// The screen, and where the cursor should show (a prompt's insertion point), if anywhere.
    public static func render(_ panel: Panel, at time: Double) -> (screen: ScreenBuffer, cursor: FrameWriter.CursorPosition?) {
        var screen = ScreenBuffer(width: panel.width, height: panel.height)
        let layout = panel.layout
        guard layout.style != .tooSmall else {
            drawTooSmall(panel, into: &screen)
            return (screen, nil)
        }
        drawHeader(panel, into: &screen)
        for (index, slot) in zip(layout.shown, layout.slots) {
            if layout.style == .full {
                drawKnob(panel, index, slot, layout: layout, at: time, into: &screen)
            } else {
                drawCompactKnob(panel, index, slot, layout: layout, at: time, into: &screen)
            }
        }
        if let frame = layout.pager { drawPager(layout, ascii: panel.ascii, into: &screen, frame: frame) }
        if panel.sections.isEmpty { drawFullName(panel, layout, into: &screen) } else { drawSections(panel, layout, into: &screen) }
        if let frame = layout.outputs {
            OutputPainter.draw(panel.outputs, columns: layout.outputColumns, ascii: panel.ascii, into: &screen, frame: frame)
        }
        if let frame = layout.meters, let meters = panel.meters {
            MeterPainter.draw(meters, ascii: panel.ascii, into: &screen, frame: frame)
        }
        // The response curve is the built-in lowpass's; other processors have none to draw.
        if panel.showsResponse, let frame = layout.plot { drawResponse(panel, at: time, into: &screen, frame: frame) }
        let cursor = drawStatus(panel, at: time, into: &screen, row: layout.statusRow)
        switch panel.mode {
        case .help:
            HelpOverlay.draw(ascii: panel.ascii, into: &screen)
        case .browser(let browser):
            drawBrowser(browser, panel: panel, into: &screen)
        default:
            break
        }
        return (screen, cursor)
    }

    // MARK: - Parts

    static func drawTooSmall(_ panel: Panel, into screen: inout ScreenBuffer) {
        let minimum = PanelLayout.minimumSize(knobCount: panel.knobs.count, nameWidth: panel.knobs.map { DisplayWidth.of($0.scale.name) }.max() ?? 0)
        let times = panel.ascii ? "x" : "×"
        let lines = ["Window too small", "need \(minimum.width)\(times)\(minimum.height)", "have \(panel.width)\(times)\(panel.height)", "q quits"]
        for (row, line) in lines.enumerated() {
            screen.put(line, x: 0, y: row, role: row == 0 ? .error : .dim)
        }
    }

    /// `Detent  Preset: Dark (modified)` on the left (a plug-in's name in place of Detent); the
    /// engine's status (or "no audio") on the right.
    static func drawHeader(_ panel: Panel, into screen: inout ScreenBuffer) {
        screen.fill(x: 0, y: 0, width: screen.width, height: 1, with: Cell(" ", .header))
        var x = screen.put(" " + PresetName.printable(panel.title) + "  Preset: ", x: 0, y: 0, role: .header)
        let name = panel.presetName.map { PresetName.printable($0) } ?? "(untitled)"
        x = screen.put(name, x: x, y: 0, role: .header)
        if panel.isModified { x = screen.put(" (modified)", x: x, y: 0, role: .headerNotice) }
        // The status fields that fit, the least needed (client name, then buffer size) dropped first.
        var fields = statusFields(panel.status)
        let separator = panel.ascii ? " | " : " · "
        while !fields.isEmpty, DisplayWidth.of(fields.joined(separator: separator)) + 2 > screen.width - x {
            fields.removeFirst()
        }
        let right = fields.joined(separator: separator) + " "
        if !fields.isEmpty { screen.put(right, x: screen.width - DisplayWidth.of(right), y: 0, role: .header) }
    }

    /// `detent on studio`, `48 kHz`, `256 frames`, `DSP 3.1%`, `0 xruns`, `drive down (R
    /// restarts)` — or just `no audio` — in the order they are given up when the header is short.
    static func statusFields(_ status: PanelStatus) -> [String] {
        guard !status.isEmpty else { return ["no audio"] }
        var fields: [String] = []
        switch (status.clientName, status.serverName) {
        case let (client?, server?): fields.append(PresetName.printable(client) + " on " + PresetName.printable(server))
        case let (client?, nil): fields.append(PresetName.printable(client))
        case let (nil, server?): fields.append("server " + PresetName.printable(server))
        case (nil, nil): break
        }
        if let frames = status.bufferSize { fields.append("\(frames) frames") }
        if let rate = status.sampleRate { fields.append(kilohertz(rate)) }
        if let load = status.dspLoad { fields.append("DSP " + DecimalText.fixed(load, decimals: 1) + "%") }
        if let xruns = status.xruns { fields.append("\(xruns) xrun" + (xruns == 1 ? "" : "s")) }
        // Last: the field given up last, so a slot that is down shows at any width from 80.
        if !status.faultedSlots.isEmpty {
            fields.append(status.faultedSlots.map(PresetName.printable).joined(separator: ", ") + " down (R restarts)")
        }
        return fields
    }

    /// `48 kHz`, `44.1 kHz`.
    static func kilohertz(_ rate: Double) -> String {
        DecimalText.fixed(rate / 1000, decimals: rate.truncatingRemainder(dividingBy: 1000) == 0 ? 0 : 1) + " kHz"
    }

    /// The role of a knob's progress arc: turning, focused or idle look different.
    static func progressRole(_ knob: Knob) -> CellRole {
        switch knob.state {
        case .turning: .progressTurning
        case .focused: .progressFocused
        case .idle, .disabled: .progress
        }
    }

    /// Full layout: the arc (a switch for a toggle), the name under it (bracketed when focused)
    /// and the value, which stands out while KnobKit's label shows it (turning, and for the
    /// persistence time); an enumeration's label between `‹ ›`, the way it steps.
    static func drawKnob(_ panel: Panel, _ index: Int, _ slot: PanelLayout.KnobSlot, layout: PanelLayout, at time: Double,
                         into screen: inout ScreenBuffer) {
        let knob = panel.knobs[index]
        if knob.isSwitch {
            SwitchPainter.draw(on: knob.value > knob.scale.range.lowerBound, progressRole: progressRole(knob), ascii: panel.ascii,
                               into: &screen, frame: slot.art)
        } else {
            KnobPainter.drawArc(knob, at: time, progressRole: progressRole(knob), ascii: panel.ascii,
                                into: &screen, x: slot.art.x, y: slot.art.y, size: layout.artSize)
        }
        let room = slot.frame.width - 1
        let name = fitted(knob.scale.name, width: knob.isFocused ? room - 2 : room, ascii: panel.ascii)
        putCentered(knob.isFocused ? "[" + name + "]" : name, column: slot.nameColumn, row: slot.nameRow,
                    role: knob.isFocused ? .nameFocused : .name, into: &screen)
        let active = knob.label(at: time).showsValue
        var value = valueText(panel, index, active: active, width: slot.frame.width)
        if isEnumeration(knob) { value = stepperText(fitted(value, width: room - 4, ascii: panel.ascii), ascii: panel.ascii) }
        putCentered(fitted(value, width: room, ascii: panel.ascii), column: slot.valueColumn, row: slot.valueRow,
                    role: active ? .valueActive : .value, into: &screen)
    }

    /// Compact layout: `▸ Cutoff     ⣀⣀⣿⣿⣿⣀⣀  1.00 kHz`, one line per knob; a toggle's line
    /// holds a switch, an enumeration's its `‹ label ›` in place of the bar.
    static func drawCompactKnob(_ panel: Panel, _ index: Int, _ slot: PanelLayout.KnobSlot, layout: PanelLayout, at time: Double,
                                into screen: inout ScreenBuffer) {
        let knob = panel.knobs[index]
        if knob.isFocused { screen.put(panel.ascii ? ">" : "▸", x: 0, y: slot.nameRow, role: .nameFocused) }
        screen.put(fitted(knob.scale.name, width: layout.nameWidth, ascii: panel.ascii), x: slot.nameColumn, y: slot.nameRow,
                   role: knob.isFocused ? .nameFocused : .name)
        let active = knob.label(at: time).showsValue
        let role: CellRole = active ? .valueActive : .value
        if knob.isSwitch {
            SwitchPainter.drawLine(on: knob.value > knob.scale.range.lowerBound, progressRole: progressRole(knob), ascii: panel.ascii,
                                   into: &screen, x: slot.art.x, y: slot.art.y)
        } else if isEnumeration(knob) {
            let label = fitted(knob.valueText(ascii: panel.ascii), width: slot.art.width - 4, ascii: panel.ascii)
            screen.put(stepperText(label, ascii: panel.ascii), x: slot.art.x, y: slot.art.y, role: role, limit: slot.art.width)
            return
        } else {
            KnobPainter.drawBar(knob, at: time, width: slot.art.width, progressRole: progressRole(knob), ascii: panel.ascii,
                                into: &screen, x: slot.art.x, y: slot.art.y)
        }
        screen.put(valueText(panel, index, active: active, width: PanelLayout.valueWidth), x: slot.valueColumn, y: slot.valueRow,
                   role: role, limit: PanelLayout.valueWidth)
    }

    static func isEnumeration(_ knob: Knob) -> Bool {
        if case .enumeration? = knob.scale.spec?.kind { return true }
        return false
    }

    /// An enumeration's label as it steps: `‹ Lowpass ›` (`< Lowpass >` in ASCII).
    static func stepperText(_ label: String, ascii: Bool) -> String {
        ascii ? "< " + label + " >" : "‹ " + label + " ›"
    }

    /// `text` cut to `width` columns with an ellipsis when longer.
    static func fitted(_ text: String, width: Int, ascii: Bool) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        let mark = ascii ? "." : "…"
        var cut = ""
        for c in text {
            if DisplayWidth.of(cut + String(c)) + 1 > width { break }
            cut.append(c)
        }
        return width > 0 ? cut + mark : ""
    }

    /// The focused knob's name whole, on the row under the header, when its slot shows it cut
    /// (`High-pass filter…` could be the filter's mode or its frequency) and that row is free.
    static func drawFullName(_ panel: Panel, _ layout: PanelLayout, into screen: inout ScreenBuffer) {
        guard let slot = layout.slot(of: panel.focus), layout.slots[0].frame.y >= 2 else { return }
        let name = panel.knobs[panel.focus].scale.name
        let room = layout.style == .full ? slot.frame.width - 3 : layout.nameWidth
        guard DisplayWidth.of(name) > room else { return }
        let pager = layout.pager.map { _ in DisplayWidth.of(pagerText(layout, ascii: panel.ascii)) + 2 } ?? 0
        screen.put(name, x: 1, y: 1, role: .nameFocused, limit: max(screen.width - 2 - pager, 0))
    }

    /// A chain's slots as tabs on the row under the header, the focused knob's slot marked
    /// (`eq  [overdrive]  comp`; `drive down` for a slot that is down), left of the pager;
    /// with the focused knob's name after them.
    static func drawSections(_ panel: Panel, _ layout: PanelLayout, into screen: inout ScreenBuffer) {
        guard let first = layout.slots.first, first.frame.y >= 2 else { return }
        let pager = layout.pager.map { _ in DisplayWidth.of(pagerText(layout, ascii: panel.ascii)) + 2 } ?? 0
        let limit = max(screen.width - 1 - pager, 0)
        let focused = panel.sectionNumber(of: panel.focus)
        var x = 1
        let down = Set(panel.status.faultedSlots)
        for (n, section) in panel.sections.enumerated() where x < limit {
            let bypassed = section.bypass.map { panel.knobs[$0].value > panel.knobs[$0].scale.range.lowerBound } ?? false
            // An isolated slot that crashed or hung says so on its own tab, in the error colour.
            let isDown = down.contains(section.name)
            let name = PresetName.printable(section.name) + (isDown ? " down" : bypassed ? (panel.ascii ? " (off)" : " ⏻") : "")
            let text = n == focused ? "[" + name + "]" : " " + name + " "
            let role: CellRole = isDown ? .error : n == focused ? .nameFocused : (bypassed ? .dim : .name)
            x = screen.put(text, x: x, y: 1, role: role, limit: limit - x) + 1
        }
        if x < limit {
            screen.put(panel.knobs[panel.focus].scale.name, x: x + 1, y: 1, role: .dim, limit: limit - x - 1)
        }
    }

    /// The pager's text: `[ page 2/5 ]` for pages of knobs, `[ 11–28 of 40 ]` for a compact
    /// list that scrolls; `[` and `]` are the keys (and the places to click) that turn pages.
    static func pagerText(_ layout: PanelLayout, ascii: Bool) -> String {
        if layout.style == .full { return "[ page \(layout.page + 1)/\(layout.pageCount) ]" }
        return "[ \(layout.first + 1)\(ascii ? "-" : "–")\(layout.first + layout.slots.count) of \(layout.knobCount) ]"
    }

    static func drawPager(_ layout: PanelLayout, ascii: Bool, into screen: inout ScreenBuffer, frame: PanelLayout.Frame) {
        let text = pagerText(layout, ascii: ascii)
        let x = frame.x + frame.width - 1 - DisplayWidth.of(text)
        screen.put(text, x: x, y: frame.y, role: .dim)
        screen.put("[", x: x, y: frame.y, role: .prompt)
        screen.put("]", x: x + DisplayWidth.of(text) - 1, y: frame.y, role: .prompt)
    }

    /// A knob's value: with more decimals while it is turned finely and the label shows the
    /// value, when that fits in `width` columns.
    static func valueText(_ panel: Panel, _ index: Int, active: Bool, width: Int) -> String {
        let knob = panel.knobs[index]
        let plain = knob.valueText(ascii: panel.ascii)
        guard active, panel.preciseKnob == index else { return plain }
        let precise = knob.valueText(ascii: panel.ascii, extraDigits: Panel.preciseDigits)
        return DisplayWidth.of(precise) <= width ? precise : plain
    }

    static func putCentered(_ text: String, column: Int, row: Int, role: CellRole, into screen: inout ScreenBuffer) {
        screen.put(text, x: column - DisplayWidth.of(text) / 2, y: row, role: role)
    }

    /// The lowpass's response at the knobs' shown values, on the cutoff's own frequency range.
    static func drawResponse(_ panel: Panel, at time: Double, into screen: inout ScreenBuffer, frame: PanelLayout.Frame) {
        let rate = panel.status.sampleRate ?? displaySampleRate
        let cutoff = panel.knob(.cutoff)
        let response = FilterResponse(
            cutoff: cutoff.shownValue(at: time), q: panel.knob(.resonance).shownValue(at: time), sampleRate: rate)
        let title = "Filter response (dB) at " + kilohertz(rate)
        screen.put(title, x: frame.x + ResponsePlot.labelColumns, y: frame.y, role: .dim)
        let plot = ResponsePlot(frequencies: cutoff.scale.range, decibels: plotDecibels)
        plot.draw({ response.decibels(at: $0) }, marker: cutoff.shownValue(at: time), ascii: panel.ascii,
                  into: &screen, x: frame.x, y: frame.y + 1, width: frame.width, height: frame.height - 1)
    }

    /// The status line: a prompt (returning the cursor's place), a message, or the key hints.
    static func drawStatus(_ panel: Panel, at time: Double, into screen: inout ScreenBuffer, row: Int) -> FrameWriter.CursorPosition? {
        let width = screen.width
        func prompt(_ label: String, _ field: TextField) -> FrameWriter.CursorPosition {
            let x = screen.put(label, x: 0, y: row, role: .prompt)
            let shown = field.visible(width: width - x - 1)
            // Offered text that typing will replace is shown selected.
            screen.put(shown.text, x: x, y: row, role: field.isSelected ? .overlaySelected : .prompt)
            return FrameWriter.CursorPosition(x: x + shown.cursor, y: row)
        }
        switch panel.mode {
        case .valueEntry(let field):
            let knob = panel.knobs[panel.focus]
            return prompt("\(knob.scale.name) = ", field)
        case .saveName(let field):
            return prompt("Save preset as: ", field)
        case .confirmReplace(let name):
            screen.put("Replace the user preset \(PresetName.quoted(name))? (y/n)", x: 0, y: row, role: .prompt)
            return nil
        case .midiLearn:
            screen.put(panel.midiLearnPrompt, x: 0, y: row, role: .prompt, limit: width)
            return nil
        case .search(let field, _):
            return prompt("Find knob: ", field)
        case .chainAdd(let field, let position):
            return prompt("Add at \(position) (plug-in, builtin, NAME=plug-in): ", field)
        case .confirmRemove(let name):
            screen.put("Remove slot \(name) from the chain? (y/n)", x: 0, y: row, role: .prompt, limit: width)
            return nil
        case .fileEntry(let field, let file, let candidates):
            // The names Tab left to choose from, on the row above, as many as fit.
            if !candidates.isEmpty, row > 0 {
                screen.fill(x: 0, y: row - 1, width: width, height: 1)
                var shown = ""
                for (i, name) in candidates.enumerated() {
                    let next = (shown.isEmpty ? "" : "  ") + PresetName.printable(name)
                    let rest = candidates.count - i - 1
                    let more = rest > 0 ? "  (+\(rest))" : ""
                    if DisplayWidth.of(shown + next + more) > width {
                        shown += "  (+\(candidates.count - i))"
                        break
                    }
                    shown += next
                }
                screen.put(shown, x: 0, y: row - 1, role: .dim, limit: width)
            }
            return prompt(panel.filePromptLabel(file), field)
        default:
            break
        }
        if let message = panel.shownMessage(at: time) {
            screen.put(message.text, x: 0, y: row, role: message.isError ? .error : .status, limit: width)
            return nil
        }
        screen.put(hints(panel).joined(separator: "  "), x: 0, y: row, role: .dim, limit: width)
        return nil
    }

    /// The key hints that fit the width, in reading order; the least important go first when
    /// the line is short.
    static func hints(_ panel: Panel) -> [String] {
        // (hint, importance): higher stays longer.
        var all: [(String, Int)] = [
            ("Tab focus", 7), (panel.ascii ? "Up/Dn turn" : "↑↓ turn", 6), ("= type", 4), ("d reset", 3),
            ("p presets", 2), ("s save", 5), ("u undo", 1), ("? help", 9), ("q quit", 8),
        ]
        if panel.layout.pager != nil { all.insert(("[ ] pages", 6), at: 1) }
        if !panel.sections.isEmpty { all.insert(("{ } slots", 6), at: 1); all.insert(("/ find", 5), at: 2) }
        if panel.dragStyle == .circular { all.insert(("[circular drag]", 10), at: 0) }
        func length(_ hints: [(String, Int)]) -> Int { hints.map { DisplayWidth.of($0.0) + 2 }.reduce(-2, +) }
        while length(all) > panel.width, let least = all.indices.min(by: { all[$0].1 < all[$1].1 }) {
            all.remove(at: least)
        }
        return all.map(\.0)
    }

    static func drawBrowser(_ browser: PresetBrowser, panel: Panel, into screen: inout ScreenBuffer) {
        let nameWidth = min(max(browser.rows.map { DisplayWidth.of(PresetName.printable($0.name)) }.max() ?? 0, 12), 40)
        let inner = min(nameWidth + 2 + 26, screen.width - 4)
        let visible = max(min(browser.rows.count, screen.height - 6), 1)
        let box = OverlayBox(title: "Presets", footer: "Enter load  Esc close", width: inner + 2, height: visible + 2, ascii: panel.ascii, screen: screen)
        box.drawFrame(into: &screen)
        guard !browser.rows.isEmpty else {
            screen.put("no presets", x: box.x + 2, y: box.y + 1, role: .overlay)
            return
        }
        let first = browser.firstVisibleRow(visible: visible)
        for line in 0..<visible where first + line < browser.rows.count {
            let index = first + line
            let row = browser.rows[index]
            let selected = index == browser.selection
            let role: CellRole = selected ? .overlaySelected : .overlay
            let y = box.y + 1 + line
            screen.fill(x: box.x + 1, y: y, width: inner, height: 1, with: Cell(" ", role))
            screen.put(PresetName.printable(row.name), x: box.x + 2, y: y, role: role, limit: nameWidth)
            let detail: String
            switch row.status {
            case .valid: detail = row.origin.label
            case .broken: detail = row.origin.label + ", unreadable"
            }
            screen.put(detail, x: box.x + 3 + nameWidth, y: y, role: selected ? .overlaySelected : .dim, limit: inner - nameWidth - 3)
        }
    }
}
