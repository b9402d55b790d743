internal import CCairo
import ThrobberCore

/// The cairo functions Throbber calls, looked up when the first scene is
/// drawn (``DynamicLibrary``), with the types of `cairo.h`.
///
/// cairo brings pixman, fontconfig, freetype and eight X11 libraries; linked,
/// they cost every run about 1.5 ms of loading and binding before `main`
/// (docs/tuning.md, "Start-up"), though only `render`, `preset` and
/// `gallery` draw.
package struct CairoLibrary: @unchecked Sendable {
    typealias Context = OpaquePointer?
    typealias Surface = OpaquePointer?

    let imageSurfaceCreate: @convention(c) (cairo_format_t, Int32, Int32) -> Surface
    let imageSurfaceCreateForData:
        @convention(c) (UnsafeMutablePointer<UInt8>?, cairo_format_t, Int32, Int32, Int32) -> Surface
    let imageSurfaceGetStride: @convention(c) (Surface) -> Int32
    let imageSurfaceGetData: @convention(c) (Surface) -> UnsafeMutablePointer<UInt8>?
    let surfaceFlush: @convention(c) (Surface) -> Void
    let surfaceDestroy: @convention(c) (Surface) -> Void
    let create: @convention(c) (Surface) -> Context
    let destroy: @convention(c) (Context) -> Void
    let status: @convention(c) (Context) -> cairo_status_t
    let statusToString: @convention(c) (cairo_status_t) -> UnsafePointer<CChar>
    let save: @convention(c) (Context) -> Void
    let restore: @convention(c) (Context) -> Void
    let translate: @convention(c) (Context, Double, Double) -> Void
    let scale: @convention(c) (Context, Double, Double) -> Void
    let rotate: @convention(c) (Context, Double) -> Void
    let identityMatrix: @convention(c) (Context) -> Void
    let getMatrix: @convention(c) (Context, UnsafeMutablePointer<cairo_matrix_t>?) -> Void
    let newPath: @convention(c) (Context) -> Void
    let closePath: @convention(c) (Context) -> Void
    let arc: @convention(c) (Context, Double, Double, Double, Double, Double) -> Void
    let rectangle: @convention(c) (Context, Double, Double, Double, Double) -> Void
    let fill: @convention(c) (Context) -> Void
    let stroke: @convention(c) (Context) -> Void
    let paint: @convention(c) (Context) -> Void
    let paintWithAlpha: @convention(c) (Context, Double) -> Void
    let setLineWidth: @convention(c) (Context, Double) -> Void
    let setLineCap: @convention(c) (Context, cairo_line_cap_t) -> Void
    let setSourceRGBA: @convention(c) (Context, Double, Double, Double, Double) -> Void
    let setSourceSurface: @convention(c) (Context, Surface, Double, Double) -> Void
    let getSource: @convention(c) (Context) -> OpaquePointer?
    let patternSetFilter: @convention(c) (OpaquePointer?, cairo_filter_t) -> Void
    let pushGroup: @convention(c) (Context) -> Void
    let popGroupToSource: @convention(c) (Context) -> Void
    /// `cairo_version_string`: the version of the library loaded.
    package let version: @convention(c) () -> UnsafePointer<CChar>

    private init() throws {
        let library = try DynamicLibrary(["libcairo.so.2", "libcairo.so"], package: "libcairo2-dev")
        func look<T>(_ name: String, _ type: T.Type) throws -> T { try library.function(name, as: type) }
        imageSurfaceCreate = try look("cairo_image_surface_create", type(of: imageSurfaceCreate))
        imageSurfaceCreateForData = try look(
            "cairo_image_surface_create_for_data", type(of: imageSurfaceCreateForData))
        imageSurfaceGetStride = try look("cairo_image_surface_get_stride", type(of: imageSurfaceGetStride))
        imageSurfaceGetData = try look("cairo_image_surface_get_data", type(of: imageSurfaceGetData))
        surfaceFlush = try look("cairo_surface_flush", type(of: surfaceFlush))
        surfaceDestroy = try look("cairo_surface_destroy", type(of: surfaceDestroy))
        create = try look("cairo_create", type(of: create))
        destroy = try look("cairo_destroy", type(of: destroy))
        status = try look("cairo_status", type(of: status))
        statusToString = try look("cairo_status_to_string", type(of: statusToString))
        save = try look("cairo_save", type(of: save))
        restore = try look("cairo_restore", type(of: restore))
        translate = try look("cairo_translate", type(of: translate))
        scale = try look("cairo_scale", type(of: scale))
        rotate = try look("cairo_rotate", type(of: rotate))
        identityMatrix = try look("cairo_identity_matrix", type(of: identityMatrix))
        getMatrix = try look("cairo_get_matrix", type(of: getMatrix))
        newPath = try look("cairo_new_path", type(of: newPath))
        closePath = try look("cairo_close_path", type(of: closePath))
        arc = try look("cairo_arc", type(of: arc))
        rectangle = try look("cairo_rectangle", type(of: rectangle))
        fill = try look("cairo_fill", type(of: fill))
        stroke = try look("cairo_stroke", type(of: stroke))
        paint = try look("cairo_paint", type(of: paint))
        paintWithAlpha = try look("cairo_paint_with_alpha", type(of: paintWithAlpha))
        setLineWidth = try look("cairo_set_line_width", type(of: setLineWidth))
        setLineCap = try look("cairo_set_line_cap", type(of: setLineCap))
        setSourceRGBA = try look("cairo_set_source_rgba", type(of: setSourceRGBA))
        setSourceSurface = try look("cairo_set_source_surface", type(of: setSourceSurface))
        getSource = try look("cairo_get_source", type(of: getSource))
        patternSetFilter = try look("cairo_pattern_set_filter", type(of: patternSetFilter))
        pushGroup = try look("cairo_push_group", type(of: pushGroup))
        popGroupToSource = try look("cairo_pop_group_to_source", type(of: popGroupToSource))
        version = try look("cairo_version_string", type(of: version))
    }

    private static let loaded = Result { try CairoLibrary() }

    /// The library, loaded by the first call. Throws
    /// ``ThrobberError/Kind/software`` when it cannot be loaded.
    package static func get() throws -> CairoLibrary { try loaded.get() }
}
