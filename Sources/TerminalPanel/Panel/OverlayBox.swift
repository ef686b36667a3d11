/// A framed box centred on the screen, for overlays.
struct OverlayBox {
    let x: Int, y: Int, width: Int, height: Int
    let title: String, footer: String
    let ascii: Bool

    init(title: String, footer: String, width: Int, height: Int, ascii: Bool, screen: ScreenBuffer) {
        self.width = min(width, screen.width)
        self.height = min(height, screen.height)
        x = (screen.width - self.width) / 2
        y = (screen.height - self.height) / 2
        self.title = title
        self.footer = footer
        self.ascii = ascii
    }

    func drawFrame(into screen: inout ScreenBuffer) {
        let (h, v, tl, tr, bl, br): (Character, Character, Character, Character, Character, Character) =
            ascii ? ("-", "|", "+", "+", "+", "+") : ("─", "│", "┌", "┐", "└", "┘")
        screen.fill(x: x, y: y, width: width, height: height, with: Cell(" ", .overlay))
        for column in x..<(x + width) {
            screen[column, y] = Cell(h, .overlay)
            screen[column, y + height - 1] = Cell(h, .overlay)
        }
        for row in y..<(y + height) {
            screen[x, row] = Cell(v, .overlay)
            screen[x + width - 1, row] = Cell(v, .overlay)
        }
        screen[x, y] = Cell(tl, .overlay)
        screen[x + width - 1, y] = Cell(tr, .overlay)
        screen[x, y + height - 1] = Cell(bl, .overlay)
        screen[x + width - 1, y + height - 1] = Cell(br, .overlay)
        screen.put(" \(title) ", x: x + 2, y: y, role: .overlay, limit: width - 4)
        screen.put(" \(footer) ", x: x + 2, y: y + height - 1, role: .overlay, limit: width - 4)
    }
}
