// The wire protocol's messages are part of this module's API: `import RendererCollaboration`
// brings them, as it did before they had a module of their own.
@_exported import RendererCollaborationMessages
