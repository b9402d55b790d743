extension RGBAImage {
    /// This image drawn over a canvas of `background` (source-over), or the
    /// image itself when `background` is fully transparent: what
    /// `--background` does to every input frame.
    public func over(background: Color) -> RGBAImage {
        guard background.a > 0 else { return self }
        var canvas = RGBAImage(width: width, height: height, fill: background)
        canvas.draw(self, at: 0, 0, over: true)
        return canvas
    }
}
