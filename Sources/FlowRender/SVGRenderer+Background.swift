import FlowCore

extension SVGRenderer {
    // MARK: - Background

    /// The background levels: tile size in output units and opacity factor. Grid: a fine
    /// level and a coarse one (5×); dots: one level. The spacing is multiplied by 5 until
    /// it is at least 10 output units (§15).
    func backgroundLevels() -> [(id: StaticString, fill: StaticString, size: Double, opacity: Double)] {
        let bg = store.configuration.backgroundStyle
        guard bg.pattern != .none else { return [] }
        var size = bg.spacing * zoom
        var steps = 0
        while size < 10, steps < 64 {
            size *= 5
            steps += 1
        }
        guard size.isFinite, size > 0 else { return [] }
        if bg.pattern == .dot { return [("bg-dots", "url(#bg-dots)", size, 1)] }
        let t = min(max((size - 10) / 5, 0), 1)
        return [
            ("bg-grid-fine", "url(#bg-grid-fine)", size, 0.4 + 0.6 * t),
            ("bg-grid-coarse", "url(#bg-grid-coarse)", size * 5, 1),
        ]
    }

    func writePatterns(_ w: inout ByteWriter) {
        let bg = store.configuration.backgroundStyle
        for level in backgroundLevels() {
            // Tiles are centred on the lattice points so lines and dots are never cut.
            let half = level.size / 2
            w.raw("<pattern id=\"")
            w.raw(level.id)
            w.raw("\" patternUnits=\"userSpaceOnUse\" x=\"")
            w.number(offset.x - half)
            w.raw("\" y=\"")
            w.number(offset.y - half)
            w.raw("\" width=\"")
            w.number(level.size)
            w.raw("\" height=\"")
            w.number(level.size)
            w.raw("\">")
            let alpha = backgroundColour.opacity * level.opacity
            if bg.pattern == .dot {
                w.raw("<circle cx=\"")
                w.number(half)
                w.raw("\" cy=\"")
                w.number(half)
                w.raw("\" r=\"")
                w.number(bg.dotRadius)
                w.raw("\" fill=\"#")
                w.raw(backgroundColour.hex)
                if alpha < 1 {
                    w.raw("\" fill-opacity=\"")
                    w.number(alpha)
                }
            } else {
                w.raw("<path d=\"M")
                w.number(half)
                w.raw(" 0V")
                w.number(level.size)
                w.raw("M0 ")
                w.number(half)
                w.raw("H")
                w.number(level.size)
                w.raw("\" fill=\"none\" stroke=\"#")
                w.raw(backgroundColour.hex)
                w.raw("\" stroke-width=\"")
                w.number(bg.lineWidth)
                if alpha < 1 {
                    w.raw("\" stroke-opacity=\"")
                    w.number(alpha)
                }
            }
            w.raw("\"/></pattern>\n")
        }
    }

    func writeBackground(_ w: inout ByteWriter, viewBox: Rect) {
        /// The rest of a `<rect` covering the view box, after its own attribute.
        func box(_ w: inout ByteWriter) {
            w.raw("\" x=\"")
            w.number(viewBox.x)
            w.raw("\" y=\"")
            w.number(viewBox.y)
            w.raw("\" width=\"")
            w.number(viewBox.width)
            w.raw("\" height=\"")
            w.number(viewBox.height)
            w.raw("\"/>\n")
        }
        func rect(_ w: inout ByteWriter, _ attribute: StaticString, _ value: StaticString) {
            w.raw("<rect ")
            w.raw(attribute)
            w.raw("=\"")
            w.raw(value)
            box(&w)
        }
        if let g = store.diagramLook.backgroundGradient {
            // the diagram's own page gradient (DOT's bgcolor="a:b")
            writeGradient(&w, g, id: "gradient-page", box: viewBox)
            w.raw("<rect class=\"bg\" style=\"fill:url(#gradient-page)")
            box(&w)
        } else if let c = store.diagramLook.background {
            // the diagram's own page colour (DOT's bgcolor) over the theme's
            w.raw("<rect class=\"bg\" style=\"fill:#")
            w.raw(c.hex)
            if c.alpha < 255 {
                w.raw(";fill-opacity:")
                w.number(c.opacity)
            }
            box(&w)
        } else {
            rect(&w, "class", "bg")
        }
        guard options.background else { return }
        for level in backgroundLevels() { rect(&w, "fill", level.fill) }
    }
}
