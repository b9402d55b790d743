@_exported import ThrobberCheck
@_exported import ThrobberCodecs
// The umbrella module: `import ThrobberKit` brings in every stage.
@_exported import ThrobberCore
@_exported import ThrobberEncode
@_exported import ThrobberScene
