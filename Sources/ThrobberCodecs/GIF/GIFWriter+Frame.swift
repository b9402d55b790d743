import ThrobberCore

/// The frames `GIFWriter` writes, and the LZW data it can write again.
extension GIFWriter {
    /// One frame, already palettized and cropped.
    package struct Frame {
        package var rect: PixelRect
        /// Local color table (packed RGBA; alpha ignored), or nil for the global one.
        package var palette: [UInt32]?
        /// `rect.width * rect.height` palette indices.
        package var indices: [UInt8]
        /// Centiseconds.
        package var delay: Int
        package var disposal: Disposal
        package var transparentIndex: Int?
        /// LZW data already coded (by `encoded`), used when it was coded
        /// from these very indices with the code size the frame is written
        /// with.
        package var lzw: LZWData?

        package init(
            rect: PixelRect, palette: [UInt32]?, indices: [UInt8], delay: Int, disposal: Disposal,
            transparentIndex: Int?
        ) {
            self.rect = rect
            self.palette = palette
            self.indices = indices
            self.delay = delay
            self.disposal = disposal
            self.transparentIndex = transparentIndex
        }
    }

    /// A frame's coded indices: the indices (sharing the frame's storage,
    /// so that comparing them with the frame's is quick while they are
    /// unchanged), the LZW minimum code size and the codes.
    package struct LZWData: Sendable {
        package var indices: [UInt8]
        package var codeSize: Int
        package var data: [UInt8]
    }
}
