// The umbrella module: `import ThrobberKit` brings in every stage.
@_exported import ThrobberCore
@_exported import ThrobberCodecs
@_exported import ThrobberEncode
@_exported import ThrobberScene
@_exported import ThrobberCheck
