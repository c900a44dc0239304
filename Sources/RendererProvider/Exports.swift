// The application API stands on the engine contract and the file formats: whoever imports
// RendererProvider sees the contract's types (documents' values, errors, the engine protocols)
// and the formats' (image encodings, form values) as well.
@_exported import RendererEngine
@_exported import RendererFormats
