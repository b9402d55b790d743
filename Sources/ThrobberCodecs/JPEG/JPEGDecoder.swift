internal import CJPEG
import ThrobberCore

/// JPEG through libjpeg-turbo (baseline, progressive, grayscale). Every
/// libjpeg warning is an error, as `djpeg -strict` makes it: a file that
/// ends before its last scan, or whose entropy-coded data is corrupt, is
/// refused rather than padded with gray or decoded into garbage.
/// libjpeg's own memory (a progressive file's coefficients for the whole
/// image) is limited as `djpeg -maxmemory` limits it.
enum JPEGDecoder {
    /// The memory limit when the caller gives none: the machine's default
    /// budget (``MemoryBudget/machineDefault``), read once.
    static let defaultMemoryLimit = MemoryBudget.machineDefault.limit

    /// Decodes `bytes`, with libjpeg's own allocations held to
    /// `memoryLimit` bytes (nil: ``defaultMemoryLimit``). Throws a data
    /// error naming `name` for a damaged, truncated or corrupt file, or
    /// one that needs more memory than that to decode.
    static func decode(_ bytes: [UInt8], name: String, memoryLimit: Int? = nil) throws -> RGBAImage {
        let limit = max(1, memoryLimit ?? defaultMemoryLimit)
        return try ShimDecoder.decode(
            bytes, name: name, format: "JPEG", fallback: "decoding failed",
            begin: { throbber_jpeg_begin($0, $1, $2, $3, $4, $5, $6, limit) },
            finish: { throbber_jpeg_finish($0, $1, $2, $3) })
    }
}
